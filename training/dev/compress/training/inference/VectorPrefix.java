package dev.compress.training.inference;

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
                double length = Math.sqrt(norm);
                float inverse = (float) (1 / length);
                for (int i = 0; i < d; i++) {
                    // below about 3e-39 the inverse overflows float, and only a division keeps the direction
                    prefix[i] = Float.isFinite(inverse) ? prefix[i] * inverse : (float) (prefix[i] / length);
                }
            }
        }
        return prefix;
    }
}
