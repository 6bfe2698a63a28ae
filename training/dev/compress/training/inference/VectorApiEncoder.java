package dev.compress.training.inference;

import dev.compress.training.model.ModelArtifact;
import java.util.ArrayList;
import java.util.List;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorShuffle;
import jdk.incubator.vector.VectorSpecies;

/**
 * Java inference through the Vector API ({@code jdk.incubator.vector}, which OpenSearch's own
 * jvm.options adds for Lucene): a linear layer is blocked dot products over W's rows ([out, in], as
 * stored) with explicit fused multiply-adds at the machine's widest vector width. A batch goes through
 * micro-kernels of 4 rows x 2 outputs (8 independent accumulators; each weight vector loaded once for 4
 * rows), over tiles of {@value #OUT_TILE} outputs so a tile's weights stay in L2 while the block passes;
 * a single vector goes through a 1 row x 4 outputs kernel. Only load this class where
 * {@link CpuEncoders#vectorApiAvailable()} holds: without the module it cannot link.
 */
public final class VectorApiEncoder extends LayerStackEncoder {

    private static final VectorSpecies<Float> SPECIES = FloatVector.SPECIES_PREFERRED;
    /** For {@link #sum}: lane i paired with lane i ^ h, for h = half the width down to 1. */
    private static final List<VectorShuffle<Float>> HALVES = halves();
    /** Outputs per tile: 128 x 768 inputs x 4 bytes = 384 KB of weights, inside a 1 MB L2. */
    private static final int OUT_TILE = 128;

    private static List<VectorShuffle<Float>> halves() {
        List<VectorShuffle<Float>> halves = new ArrayList<>();
        for (int h = SPECIES.length() / 2; h >= 1; h /= 2) {
            int half = h;
            halves.add(VectorShuffle.fromOp(SPECIES, lane -> lane ^ half));
        }
        return List.copyOf(halves);
    }

    /** @param outputDim one of the model's output dimensions (the prefix to keep) */
    public VectorApiEncoder(ModelArtifact model, int outputDim) {
        super(model, outputDim);
    }

    @Override
    protected Step linear(float[] w, float[] b, int in, int out) {
        return (rows, input) -> {
            int n = rows.length;
            float[][] y = new float[n][out];
            for (int o0 = 0; o0 < out; o0 += OUT_TILE) {
                int o1 = Math.min(out, o0 + OUT_TILE);
                int r = 0;
                for (; r + 4 <= n; r += 4) {
                    rows4(w, in, rows, r, o0, o1, y);
                }
                for (; r < n; r++) {
                    row1(w, in, rows[r], o0, o1, y[r]);
                }
            }
            for (float[] row : y) {
                for (int o = 0; o < out; o++) {
                    row[o] += b[o];
                }
            }
            return y;
        };
    }

    /** y[r..r+3][o] = x[r..r+3] . W[o] for o in [o0, o1). */
    private static void rows4(float[] w, int in, float[][] x, int r, int o0, int o1, float[][] y) {
        float[] x0 = x[r];
        float[] x1 = x[r + 1];
        float[] x2 = x[r + 2];
        float[] x3 = x[r + 3];
        int bound = SPECIES.loopBound(in);
        int o = o0;
        for (; o + 2 <= o1; o += 2) {
            int wa = o * in;
            int wb = wa + in;
            FloatVector a0 = FloatVector.zero(SPECIES), a1 = a0, a2 = a0, a3 = a0;
            FloatVector b0 = a0, b1 = a0, b2 = a0, b3 = a0;
            for (int i = 0; i < bound; i += SPECIES.length()) {
                FloatVector va = FloatVector.fromArray(SPECIES, w, wa + i);
                FloatVector vb = FloatVector.fromArray(SPECIES, w, wb + i);
                FloatVector v0 = FloatVector.fromArray(SPECIES, x0, i);
                FloatVector v1 = FloatVector.fromArray(SPECIES, x1, i);
                FloatVector v2 = FloatVector.fromArray(SPECIES, x2, i);
                FloatVector v3 = FloatVector.fromArray(SPECIES, x3, i);
                a0 = v0.fma(va, a0);
                a1 = v1.fma(va, a1);
                a2 = v2.fma(va, a2);
                a3 = v3.fma(va, a3);
                b0 = v0.fma(vb, b0);
                b1 = v1.fma(vb, b1);
                b2 = v2.fma(vb, b2);
                b3 = v3.fma(vb, b3);
            }
            y[r][o] = sum(a0) + tail(w, wa, x0, bound, in);
            y[r + 1][o] = sum(a1) + tail(w, wa, x1, bound, in);
            y[r + 2][o] = sum(a2) + tail(w, wa, x2, bound, in);
            y[r + 3][o] = sum(a3) + tail(w, wa, x3, bound, in);
            y[r][o + 1] = sum(b0) + tail(w, wb, x0, bound, in);
            y[r + 1][o + 1] = sum(b1) + tail(w, wb, x1, bound, in);
            y[r + 2][o + 1] = sum(b2) + tail(w, wb, x2, bound, in);
            y[r + 3][o + 1] = sum(b3) + tail(w, wb, x3, bound, in);
        }
        for (; o < o1; o++) {
            for (int k = 0; k < 4; k++) {
                y[r + k][o] = dot(w, o * in, x[r + k], in);
            }
        }
    }

    /** y[o] = x . W[o] for o in [o0, o1), four outputs at a time (independent accumulators hide FMA latency). */
    private static void row1(float[] w, int in, float[] x, int o0, int o1, float[] y) {
        int bound = SPECIES.loopBound(in);
        int o = o0;
        for (; o + 4 <= o1; o += 4) {
            int w0 = o * in;
            int w1 = w0 + in;
            int w2 = w1 + in;
            int w3 = w2 + in;
            FloatVector a0 = FloatVector.zero(SPECIES), a1 = a0, a2 = a0, a3 = a0;
            for (int i = 0; i < bound; i += SPECIES.length()) {
                FloatVector v = FloatVector.fromArray(SPECIES, x, i);
                a0 = v.fma(FloatVector.fromArray(SPECIES, w, w0 + i), a0);
                a1 = v.fma(FloatVector.fromArray(SPECIES, w, w1 + i), a1);
                a2 = v.fma(FloatVector.fromArray(SPECIES, w, w2 + i), a2);
                a3 = v.fma(FloatVector.fromArray(SPECIES, w, w3 + i), a3);
            }
            y[o] = sum(a0) + tail(w, w0, x, bound, in);
            y[o + 1] = sum(a1) + tail(w, w1, x, bound, in);
            y[o + 2] = sum(a2) + tail(w, w2, x, bound, in);
            y[o + 3] = sum(a3) + tail(w, w3, x, bound, in);
        }
        for (; o < o1; o++) {
            y[o] = dot(w, o * in, x, in);
        }
    }

    private static float dot(float[] w, int off, float[] x, int in) {
        int bound = SPECIES.loopBound(in);
        FloatVector acc = FloatVector.zero(SPECIES);
        for (int i = 0; i < bound; i += SPECIES.length()) {
            acc = FloatVector.fromArray(SPECIES, x, i).fma(FloatVector.fromArray(SPECIES, w, off + i), acc);
        }
        return sum(acc) + tail(w, off, x, bound, in);
    }

    /**
     * The lanes added pairwise in a fixed tree: each lane to the one half the remaining width away, until lane
     * 0 holds the sum. {@code reduceLanes(ADD)} leaves its order unspecified, and compiled code adds in another
     * order than the interpreter, so one vector's output changed in its last bits once the JIT had compiled
     * this class. Shuffles and lane-wise adds mean the same in both.
     */
    private static float sum(FloatVector v) {
        for (VectorShuffle<Float> halves : HALVES) {
            v = v.add(v.rearrange(halves));
        }
        return v.lane(0);
    }

    /** The inputs past the last full vector, in scalar code. */
    private static float tail(float[] w, int off, float[] x, int from, int in) {
        float s = 0;
        for (int i = from; i < in; i++) {
            s += x[i] * w[off + i];
        }
        return s;
    }
}
