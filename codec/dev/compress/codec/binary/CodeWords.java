package dev.compress.codec.binary;

/**
 * Bit kernels over sign codes packed into 64-bit words: bit {@code i} of a code is bit {@code i %
 * 64} of word {@code i / 64}. That is the little-endian reading of the byte layout of {@link
 * SignBinarizer} (bit {@code i} in byte {@code i / 8}), so a stored code is read as words directly.
 *
 * <p>Working on {@code long}s rather than bytes lets {@link Long#bitCount} compile to one {@code
 * popcnt} per 64 dimensions; on bytes, every 8 dimensions cost a load, a mask and a popcount.
 */
public final class CodeWords {

    private CodeWords() {}

    /** Words of a {@code dims}-bit code. */
    public static int words(int dims) {
        return (dims + 63) >>> 6;
    }

    /** Packs a byte code (least significant bit first) into {@code out}, zero-padded. */
    public static long[] pack(byte[] code, long[] out) {
        java.util.Arrays.fill(out, 0L);
        for (int i = 0; i < code.length; i++) {
            out[i >>> 3] |= (code[i] & 0xFFL) << ((i & 7) << 3);
        }
        return out;
    }

    /** Differing bits of two codes of equal length: the Hamming distance. */
    public static int xorBitCount(long[] a, long[] b) {
        return xorBitCount(a, b, 0);
    }

    /** {@link #xorBitCount(long[], long[])} against the code that starts at {@code b[offset]}. */
    public static int xorBitCount(long[] a, long[] b, int offset) {
        int count = 0;
        for (int w = 0; w < a.length; w++) {
            count += Long.bitCount(a[w] ^ b[offset + w]);
        }
        return count;
    }
}
