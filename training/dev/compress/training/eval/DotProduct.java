package dev.compress.training.eval;

import dev.compress.training.inference.CpuEncoders;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * Dot products of float rows held inside larger arrays: the inner loop of every exact search the
 * trainers evaluate with ({@link ExactSearch}, {@link RankingScan}), which takes most of a mask
 * model's cross-validation and a large share of every validation pass.
 *
 * <p>{@link #of} adds in one fixed order: four interleaved sums (element {@code i} into sum {@code i
 * mod 4}, the tail into the first), added pairwise at the end. {@link #ofFour} scores one row against
 * four in exactly that order, bit for bit, so that the rankings and every figure computed from them
 * do not depend on which of the two ran. It keeps the four sums of a pair in the lanes of one
 * 128-bit vector, through the Vector API where the JVM has it ({@code --add-modules
 * jdk.incubator.vector}, which OpenSearch's jvm.options and this project's test and benchmark JVMs
 * add); four pairs at once keep the CPU's adders busy where one pair's sums would wait on each other.
 */
final class DotProduct {

    /** Whether {@link #ofFour} takes the Vector API. */
    static final boolean VECTORISED = CpuEncoders.vectorApiAvailable();

    private DotProduct() {}

    /** The dot product of {@code a[aOff, aOff + dim)} and {@code b[bOff, bOff + dim)}. */
    static float of(float[] a, int aOff, float[] b, int bOff, int dim) {
        float s0 = 0, s1 = 0, s2 = 0, s3 = 0;
        int i = 0;
        for (; i + 3 < dim; i += 4) {
            s0 += a[aOff + i] * b[bOff + i];
            s1 += a[aOff + i + 1] * b[bOff + i + 1];
            s2 += a[aOff + i + 2] * b[bOff + i + 2];
            s3 += a[aOff + i + 3] * b[bOff + i + 3];
        }
        for (; i < dim; i++) {
            s0 += a[aOff + i] * b[bOff + i];
        }
        return (s0 + s1) + (s2 + s3);
    }

    /**
     * {@link #of} of {@code q[qOff, qOff + dim)} with the rows of {@code rows} that start at {@code
     * r0} to {@code r3}, into {@code out[at, at + 4)}.
     */
    static void ofFour(
            float[] q, int qOff, float[] rows, int r0, int r1, int r2, int r3, int dim, float[] out, int at) {
        if (VECTORISED) {
            Lanes.ofFour(q, qOff, rows, r0, r1, r2, r3, dim, out, at);
        } else {
            out[at] = of(q, qOff, rows, r0, dim);
            out[at + 1] = of(q, qOff, rows, r1, dim);
            out[at + 2] = of(q, qOff, rows, r2, dim);
            out[at + 3] = of(q, qOff, rows, r3, dim);
        }
    }

    /** Holds the species apart, so that loading {@link DotProduct} never needs the module. */
    private static final class Lanes {
        /** Lane {@code k} of a pair's vector is {@link #of}'s sum {@code k}. */
        static final VectorSpecies<Float> FOUR = FloatVector.SPECIES_128;

        /**
         * Each step multiplies then adds, as {@link #of} does ({@code s += a * b}, two roundings, not a
         * fused one); the lanes then leave as {@link #of}'s four sums for its tail and its final adds.
         */
        static void ofFour(
                float[] q, int qOff, float[] rows, int r0, int r1, int r2, int r3, int dim, float[] out, int at) {
            FloatVector s0 = FloatVector.zero(FOUR);
            FloatVector s1 = FloatVector.zero(FOUR);
            FloatVector s2 = FloatVector.zero(FOUR);
            FloatVector s3 = FloatVector.zero(FOUR);
            int i = 0;
            for (; i + 3 < dim; i += 4) {
                FloatVector a = FloatVector.fromArray(FOUR, q, qOff + i);
                s0 = s0.add(a.mul(FloatVector.fromArray(FOUR, rows, r0 + i)));
                s1 = s1.add(a.mul(FloatVector.fromArray(FOUR, rows, r1 + i)));
                s2 = s2.add(a.mul(FloatVector.fromArray(FOUR, rows, r2 + i)));
                s3 = s3.add(a.mul(FloatVector.fromArray(FOUR, rows, r3 + i)));
            }
            out[at] = finish(s0, q, qOff, rows, r0, i, dim);
            out[at + 1] = finish(s1, q, qOff, rows, r1, i, dim);
            out[at + 2] = finish(s2, q, qOff, rows, r2, i, dim);
            out[at + 3] = finish(s3, q, qOff, rows, r3, i, dim);
        }

        private static float finish(FloatVector sums, float[] a, int aOff, float[] b, int bOff, int from, int dim) {
            float s0 = sums.lane(0);
            for (int i = from; i < dim; i++) {
                s0 += a[aOff + i] * b[bOff + i];
            }
            return (s0 + sums.lane(1)) + (sums.lane(2) + sums.lane(3));
        }
    }
}
