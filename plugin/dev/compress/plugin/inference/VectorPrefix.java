package dev.compress.plugin.inference;

import java.util.Arrays;

/** The first {@code d} values of a vector, L2-renormalised when asked: Matryoshka truncation and nested model outputs. */
public final class VectorPrefix {

    private VectorPrefix() {}

    /** A zero prefix stays zero: there is no direction to keep. */
    public static float[] of(float[] vector, int d, boolean l2Normalise) {
        float[] prefix = Arrays.copyOf(vector, d);
        if (l2Normalise) {
            double norm = 0;
            for (float v : prefix) {
                norm += (double) v * v;
            }
            if (norm > 0) {
                float inverse = (float) (1 / Math.sqrt(norm));
                for (int i = 0; i < d; i++) {
                    prefix[i] *= inverse;
                }
            }
        }
        return prefix;
    }
}
