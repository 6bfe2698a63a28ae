package dev.compress.codec.binary;

/**
 * Counts, per dimension, how often each value of the top 7 exponent bits occurs in a field's
 * vectors, and picks each dimension's window of {@link FloatPacking#WINDOW} values holding the most
 * components ({@link FloatPacking}).
 */
final class ExponentWindows {

    private static final int VALUES = 128;

    private final int dims;
    private final long[] counts;

    ExponentWindows(int dims) {
        this.dims = dims;
        this.counts = new long[dims * VALUES];
    }

    void add(float[] vector) {
        for (int i = 0; i < dims; i++) {
            counts[i * VALUES + FloatPacking.e7(vector[i])]++;
        }
    }

    /** Each dimension's window top: the highest {@code e7} of its most populated window. */
    byte[] tops() {
        byte[] tops = new byte[dims];
        for (int i = 0; i < dims; i++) {
            int base = i * VALUES;
            long inWindow = 0;
            for (int e = 0; e < FloatPacking.WINDOW; e++) {
                inWindow += counts[base + e];
            }
            long best = inWindow;
            int bestTop = FloatPacking.WINDOW - 1;
            for (int top = FloatPacking.WINDOW; top < VALUES; top++) {
                inWindow += counts[base + top] - counts[base + top - FloatPacking.WINDOW];
                if (inWindow > best) {
                    best = inWindow;
                    bestTop = top;
                }
            }
            tops[i] = (byte) bestTop;
        }
        return tops;
    }

    /** How many components fall outside the windows {@code tops}: the exceptions packing stores whole. */
    long exceptions(byte[] tops) {
        long outside = 0;
        for (int i = 0; i < dims; i++) {
            for (int e = 0; e < VALUES; e++) {
                if (e > tops[i] || e <= tops[i] - FloatPacking.WINDOW) {
                    outside += counts[i * VALUES + e];
                }
            }
        }
        return outside;
    }
}
