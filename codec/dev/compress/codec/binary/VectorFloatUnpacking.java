package dev.compress.codec.binary;

import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link FloatPacking#decode} several components at a time with the Vector API, where the JVM has
 * it ({@code --add-modules jdk.incubator.vector}, which OpenSearch's jvm.options adds): every
 * rescored candidate of a binary field is decoded, so this runs once per candidate. Time per
 * vector against the one-at-a-time loop: {@code bench/run quick kernels}.
 */
final class VectorFloatUnpacking {

    /** Whether the JVM has the module and registers of at least 256 bits, as x86-64 with AVX2 does. */
    static final boolean AVAILABLE =
            ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent() && Species.native256();

    private VectorFloatUnpacking() {}

    /** Holds the species apart, so that loading {@link VectorFloatUnpacking} never needs the module. */
    private static final class Species {
        static final VectorSpecies<Integer> INTS = IntVector.SPECIES_256;
        static final VectorSpecies<Byte> BYTES = ByteVector.SPECIES_64;

        static boolean native256() {
            return IntVector.SPECIES_PREFERRED.vectorBitSize() >= INTS.vectorBitSize();
        }
    }

    static void decode(byte[] record, int[] floors, float[] out) {
        int dims = out.length;
        int half = FloatPacking.half(dims);
        int lanes = Species.INTS.length();
        int nibbles = 3 * dims;
        int low = 0;
        for (; low + lanes <= half; low += lanes) {
            decodeLanes(record, floors, out, low, widen(record, nibbles + low));
        }
        FloatPacking.decode(record, floors, out, low, half);
        int high = half;
        for (; high + lanes <= dims; high += lanes) {
            decodeLanes(
                    record,
                    floors,
                    out,
                    high,
                    widen(record, nibbles + high - half).lanewise(VectorOperators.ASHR, 4));
        }
        FloatPacking.decode(record, floors, out, high, dims);
    }

    private static void decodeLanes(byte[] record, int[] floors, float[] out, int i, IntVector nibbles) {
        int dims = out.length;
        IntVector bits = widen(record, i)
                .and(0xFF)
                .or(widen(record, dims + i).and(0xFF).lanewise(VectorOperators.LSHL, 8))
                .or(widen(record, 2 * dims + i).and(0xFF).lanewise(VectorOperators.LSHL, 16))
                .or(nibbles.and(8).lanewise(VectorOperators.LSHL, 28))
                .or(nibbles.and(7)
                        .add(IntVector.fromArray(Species.INTS, floors, i))
                        .lanewise(VectorOperators.LSHL, 24));
        bits.reinterpretAsFloats().intoArray(out, i);
    }

    /** Bytes {@code at} to {@code at + lanes} of {@code record}, sign-extended to ints. */
    private static IntVector widen(byte[] record, int at) {
        return (IntVector)
                ByteVector.fromArray(Species.BYTES, record, at).convertShape(VectorOperators.B2I, Species.INTS, 0);
    }
}
