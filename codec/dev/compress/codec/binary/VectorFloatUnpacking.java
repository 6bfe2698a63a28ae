package dev.compress.codec.binary;

import java.nio.ByteOrder;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link FloatPacking#decode} several components at a time with the Vector API, where the JVM has
 * it ({@code --add-modules jdk.incubator.vector}, which OpenSearch's jvm.options adds): every
 * rescored candidate of a binary field is decoded, so this runs once per candidate. Time per
 * rescored candidate against Lucene's float32: {@code bench/run quick kernels}.
 */
final class VectorFloatUnpacking {

    /**
     * Whether the JVM has the module, registers of at least 256 bits (as x86-64 with AVX2 has) and
     * the files' little-endian byte order.
     */
    static final boolean AVAILABLE =
            ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent()
                    && ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN
                    && Species.nativeBits() >= 256;

    private VectorFloatUnpacking() {}

    /**
     * Holds the species apart, so that loading {@link VectorFloatUnpacking} never needs the module:
     * 16 int lanes where the registers hold 512 bits (x86-64 with AVX-512), else 8: half the steps
     * per record where the hardware has the width.
     */
    private static final class Species {
        static final boolean WIDE = nativeBits() >= 512;
        static final VectorSpecies<Integer> INTS = WIDE ? IntVector.SPECIES_512 : IntVector.SPECIES_256;
        static final VectorSpecies<Float> FLOATS = WIDE ? FloatVector.SPECIES_512 : FloatVector.SPECIES_256;
        /** One byte per int lane. */
        static final VectorSpecies<Byte> BYTES = WIDE ? ByteVector.SPECIES_128 : ByteVector.SPECIES_64;
        /** The bytes of one int16 per int lane, read as bytes and reinterpreted as int16s. */
        static final VectorSpecies<Byte> SHORTS_AS_BYTES = WIDE ? ByteVector.SPECIES_256 : ByteVector.SPECIES_128;

        static int nativeBits() {
            return IntVector.SPECIES_PREFERRED.vectorBitSize();
        }
    }

    /** {@link FloatPacking#decode} through the Vector API; only where {@link #AVAILABLE}. */
    static void decode(byte[] record, int[] floors, float[] out) {
        Kernels.decode(record, floors, out);
    }

    /** {@link FloatPacking#coarseSums} through the Vector API; only where {@link #AVAILABLE}. */
    static void coarseSums(byte[] coarse, int[] floors, float[] query, float[] sums) {
        Kernels.coarseSums(coarse, floors, query, sums);
    }

    /**
     * The kernels, apart from {@link VectorFloatUnpacking}: verifying a class loads the vector types
     * its methods pass around, so a JVM without the module could not load a class that held them,
     * and could not even read {@link #AVAILABLE} to learn that it should not.
     */
    private static final class Kernels {

        /**
         * Decodes {@code lanes} components of each half at a time, both from one load of their nibble
         * bytes, the rest one at a time. The loop body is written out, with no vector passed to or
         * returned from a method: a vector that crosses a call the compiler does not inline is boxed,
         * which costs more than the decoding.
         */
        static void decode(byte[] record, int[] floors, float[] out) {
            int dims = out.length;
            int half = FloatPacking.half(dims);
            int lanes = Species.INTS.length();
            int high = 2 * dims;
            int nibbles = 3 * dims;
            int j = 0;
            for (; j + lanes <= dims - half; j += lanes) {
                // component j's nibble is in the low 4 bits, component j + half's in the high 4
                IntVector n = (IntVector) ByteVector.fromArray(Species.BYTES, record, nibbles + j)
                        .convertShape(VectorOperators.ZERO_EXTEND_B2I, Species.INTS, 0);
                for (int i = j; i < dims; i += half) {
                    IntVector bits = ((IntVector) ByteVector.fromArray(Species.SHORTS_AS_BYTES, record, 2 * i)
                                    .reinterpretAsShorts()
                                    .convertShape(VectorOperators.ZERO_EXTEND_S2I, Species.INTS, 0))
                            .or(((IntVector) ByteVector.fromArray(Species.BYTES, record, high + i)
                                            .convertShape(VectorOperators.ZERO_EXTEND_B2I, Species.INTS, 0))
                                    .lanewise(VectorOperators.LSHL, 16))
                            .or(n.lanewise(VectorOperators.LSHL, 28).and(0x80000000))
                            .or(n.and(7)
                                    .add(IntVector.fromArray(Species.INTS, floors, i))
                                    .lanewise(VectorOperators.LSHL, 24));
                    bits.reinterpretAsFloats().intoArray(out, i);
                    n = n.lanewise(VectorOperators.LSHR, 4);
                }
            }
            FloatPacking.decode(record, floors, out, j, half);
            FloatPacking.decode(record, floors, out, j + half, dims);
        }

        /**
         * {@link FloatPacking#coarseSums} over a whole coarse record, {@code lanes} components of each
         * half at a time, written out in one body for the reason {@link #decode} is.
         */
        static void coarseSums(byte[] coarse, int[] floors, float[] query, float[] sums) {
            int dims = query.length;
            int half = FloatPacking.half(dims);
            int lanes = Species.INTS.length();
            FloatVector dot = FloatVector.zero(Species.FLOATS);
            FloatVector abs = FloatVector.zero(Species.FLOATS);
            FloatVector norm = FloatVector.zero(Species.FLOATS);
            int j = 0;
            for (; j + lanes <= dims - half; j += lanes) {
                IntVector n = (IntVector) ByteVector.fromArray(Species.BYTES, coarse, dims + j)
                        .convertShape(VectorOperators.ZERO_EXTEND_B2I, Species.INTS, 0);
                for (int i = j; i < dims; i += half) {
                    IntVector offset = n.and(7);
                    FloatVector value = ((IntVector) ByteVector.fromArray(Species.BYTES, coarse, i)
                                    .convertShape(VectorOperators.ZERO_EXTEND_B2I, Species.INTS, 0))
                            .lanewise(VectorOperators.LSHL, 16)
                            .or(n.lanewise(VectorOperators.LSHL, 28).and(0x80000000))
                            .or(offset.add(IntVector.fromArray(Species.INTS, floors, i))
                                    .lanewise(VectorOperators.LSHL, 24))
                            .or(FloatPacking.COARSE_MIDPOINT)
                            .blend(0, offset.eq(0))
                            .reinterpretAsFloats();
                    FloatVector product =
                            FloatVector.fromArray(Species.FLOATS, query, i).mul(value);
                    dot = dot.add(product);
                    abs = abs.add(product.abs());
                    norm = value.fma(value, norm);
                    n = n.lanewise(VectorOperators.LSHR, 4);
                }
            }
            sums[0] = dot.reduceLanes(VectorOperators.ADD);
            sums[1] = abs.reduceLanes(VectorOperators.ADD);
            sums[2] = norm.reduceLanes(VectorOperators.ADD);
            FloatPacking.coarseSums(coarse, floors, query, sums, j, half);
            FloatPacking.coarseSums(coarse, floors, query, sums, j + half, dims);
        }
    }
}
