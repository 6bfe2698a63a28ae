package dev.compress.codec.binary;

import java.util.Arrays;

/**
 * Lossless packing of a float32 vector into 28 bits per component, for the floats a binary field
 * keeps to rescore with.
 *
 * <p>A float32 is a sign bit, 8 exponent bits and 23 mantissa bits. The mantissa and the lowest
 * exponent bit carry close to 24 bits of information and are stored as they are. The top 7
 * exponent bits ({@code e7 = (bits >>> 24) & 0x7F}) take few values per dimension: the components
 * of one dimension span a few orders of magnitude, each value of {@code e7} a factor of 4. So each
 * dimension {@code i} gets a window of 7 consecutive values, {@code top_i - 6} to {@code top_i}
 * (the window holding most of the dimension's components, {@link ExponentWindows}), and a component
 * inside its window stores sign and {@code e7 - top_i + 7} (1 to 7) in a 4-bit nibble. A component
 * outside (0 and values more than 4^7 times smaller than the window's largest, or larger than it)
 * stores the nibble's offset 0 and is an exception, kept whole after the record.
 *
 * <p>A record of {@code D} components takes {@link #recordBytes recordBytes(D)} = {@code 3D +
 * ceil(D / 2)} bytes, in planes, so that decoding is a few straight loops that the Vector API runs
 * several components at a time ({@link VectorFloatUnpacking}):
 *
 * <ul>
 *   <li><b>[int16 x D]</b> bits 0 to 15 of each component
 *   <li><b>[byte x D]</b> bits 16 to 23 of each component
 *   <li><b>[byte x ceil(D / 2)]</b> nibbles: byte {@code j} holds component {@code j} in its low
 *       4 bits and component {@code j + ceil(D / 2)} in its high 4 bits; a nibble is the sign bit
 *       (bit 3) over the exponent offset (bits 0 to 2)
 * </ul>
 *
 * <p>The byte plane and the nibbles, the last {@code 1.5 D} bytes of a record, hold the top 16 bits
 * of every component (sign, exponent and 7 mantissa bits), which is what the first pass of a
 * rescoring reads ({@link #coarse}, {@link TwoPassRescorer}).
 *
 * <p>A 384-d vector takes 1,344 bytes and its exceptions against float32's 1,536; what the
 * exceptions add on real embeddings is the disk figure of {@code bench/run quick knn}.
 */
final class FloatPacking {

    /** Values of {@code e7} one window covers; nibble offset 0 marks an exception. */
    static final int WINDOW = 7;

    /** Bytes of one exception after a record: [int32] component index, [int32] the float's bits. */
    static final int EXCEPTION_BYTES = 2 * Integer.BYTES;

    private FloatPacking() {}

    /** Bytes of one packed record of {@code dims} components, before its exceptions. */
    static int recordBytes(int dims) {
        return 3 * dims + half(dims);
    }

    /** Bytes of the nibble plane; component {@code half + j} shares byte {@code j} with component {@code j}. */
    static int half(int dims) {
        return (dims + 1) / 2;
    }

    /** The top 7 exponent bits of {@code value}. */
    static int e7(float value) {
        return (Float.floatToRawIntBits(value) >>> 24) & 0x7F;
    }

    /** Receives the components of a vector that fall outside their window. */
    @FunctionalInterface
    interface ExceptionSink {
        void accept(int component, int bits);
    }

    /**
     * Writes {@code vector} into {@code record} ({@link #recordBytes} bytes) with the windows' tops
     * {@code tops}, and passes every exception to {@code exceptions}, in component order.
     */
    static void encode(float[] vector, byte[] tops, byte[] record, ExceptionSink exceptions) {
        int dims = vector.length;
        int half = half(dims);
        int nibbles = 3 * dims;
        Arrays.fill(record, nibbles, nibbles + half, (byte) 0);
        for (int i = 0; i < dims; i++) {
            int bits = Float.floatToRawIntBits(vector[i]);
            record[2 * i] = (byte) bits;
            record[2 * i + 1] = (byte) (bits >>> 8);
            record[2 * dims + i] = (byte) (bits >>> 16);
            int offset = ((bits >>> 24) & 0x7F) - tops[i] + WINDOW;
            if (offset < 1 || offset > WINDOW) {
                offset = 0;
                exceptions.accept(i, bits);
            }
            int nibble = ((bits >>> 31) << 3) | offset;
            record[nibbles + (i < half ? i : i - half)] |= (byte) (i < half ? nibble : nibble << 4);
        }
    }

    /**
     * Decodes {@code record} into {@code out}, with {@code floors[i] = tops[i] - 7}, through the
     * Vector API when the JVM has it; exceptions are left wrong: the caller puts them back from the
     * bits stored after the record.
     */
    static void decode(byte[] record, int[] floors, float[] out) {
        if (VectorFloatUnpacking.AVAILABLE) {
            VectorFloatUnpacking.decode(record, floors, out);
        } else {
            decode(record, floors, out, 0, out.length);
        }
    }

    /** Decodes components {@code from} to {@code to} (exclusive) of {@code record}, one at a time. */
    static void decode(byte[] record, int[] floors, float[] out, int from, int to) {
        int dims = out.length;
        int half = half(dims);
        for (int i = from; i < Math.min(to, half); i++) {
            out[i] = Float.intBitsToFloat(bits(record, floors, dims, i, record[3 * dims + i]));
        }
        for (int i = Math.max(from, half); i < to; i++) {
            out[i] = Float.intBitsToFloat(bits(record, floors, dims, i, record[3 * dims + i - half] >> 4));
        }
    }

    /**
     * The coarse value of a component from the top 16 bits of its float (sign, exponent and the top
     * 7 of 23 mantissa bits: the byte plane and the nibble), set to the middle of the interval its
     * dropped bits span; 0 for an exception (nibble offset 0), whose exact bits follow the record.
     * A component x within its window is within {@link #COARSE_ERROR} {@code * |coarse| +}
     * {@link #COARSE_ABSOLUTE_ERROR} of it.
     */
    static float coarse(int highByte, int nibble, int floor) {
        int offset = nibble & 7;
        return offset == 0
                ? 0f
                : Float.intBitsToFloat(
                        (highByte & 0xFF) << 16 | (nibble & 8) << 28 | (offset + floor) << 24 | COARSE_MIDPOINT);
    }

    /** Bit 15: half a unit of the coarse value's last mantissa bit. */
    static final int COARSE_MIDPOINT = 0x8000;

    /**
     * Bound on a component's error relative to its coarse value: the dropped 16 bits span less than
     * 2^-7 of the value's binade, and the coarse value sits in their middle.
     */
    static final double COARSE_ERROR = 0x1p-8;

    /**
     * The error of a coarse zero or subnormal, whose exponent field is 0: a window can hold them
     * (a dimension whose values are all zero), and their dropped bits span 2^-133 whatever the value.
     */
    static final double COARSE_ABSOLUTE_ERROR = 0x1p-134;

    /**
     * {@link #coarseSums(byte[], int[], float[], float[], int, int)} over every component, into
     * {@code sums} from zero, through the Vector API when the JVM has it; the caller adds the
     * exceptions.
     */
    static void coarseSums(byte[] coarse, int[] floors, float[] query, float[] sums) {
        if (VectorFloatUnpacking.AVAILABLE) {
            VectorFloatUnpacking.coarseSums(coarse, floors, query, sums);
        } else {
            Arrays.fill(sums, 0f);
            coarseSums(coarse, floors, query, sums, 0, query.length);
        }
    }

    /**
     * Adds components {@code from} to {@code to} (exclusive) of a coarse record to {@code sums}:
     * [0] the dot product with {@code query}, [1] the sum of |query_i * coarse_i|, [2] the squared
     * norm. {@code coarse} is a record from its byte plane on ({@link #recordBytes} {@code - 2D}
     * bytes: the byte plane, then the nibbles); exceptions count as 0.
     */
    static void coarseSums(byte[] coarse, int[] floors, float[] query, float[] sums, int from, int to) {
        int dims = query.length;
        int half = half(dims);
        float dot = sums[0];
        float abs = sums[1];
        float norm = sums[2];
        for (int i = from; i < to; i++) {
            int nibble = i < half ? coarse[dims + i] : coarse[dims + i - half] >> 4;
            float value = coarse(coarse[i], nibble, floors[i]);
            float product = query[i] * value;
            dot += product;
            abs += Math.abs(product);
            norm += value * value;
        }
        sums[0] = dot;
        sums[1] = abs;
        sums[2] = norm;
    }

    private static int bits(byte[] record, int[] floors, int dims, int i, int nibble) {
        return (record[2 * i] & 0xFF)
                | (record[2 * i + 1] & 0xFF) << 8
                | (record[2 * dims + i] & 0xFF) << 16
                | (nibble & 8) << 28
                | ((nibble & 7) + floors[i]) << 24;
    }
}
