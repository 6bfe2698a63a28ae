package dev.compress.demo.embed;

/**
 * Turns a model's token vectors ({@code last_hidden_state} of one input) into one unit-length
 * sentence vector. Sums and the norm are taken in double precision, as for the shared vectors.
 */
public enum Pooling {
    /** The [CLS] token's vector (bge). */
    CLS {
        @Override
        double[] pool(float[][] tokens, long[] attentionMask) {
            double[] out = new double[tokens[0].length];
            for (int d = 0; d < out.length; d++) {
                out[d] = tokens[0][d];
            }
            return out;
        }
    },
    /** The attention-mask-weighted mean over all tokens, [CLS] and [SEP] included (MiniLM). */
    MEAN {
        @Override
        double[] pool(float[][] tokens, long[] attentionMask) {
            double[] out = new double[tokens[0].length];
            double weight = 0;
            for (int t = 0; t < attentionMask.length; t++) {
                if (attentionMask[t] != 0) {
                    weight += attentionMask[t];
                    for (int d = 0; d < out.length; d++) {
                        out[d] += attentionMask[t] * (double) tokens[t][d];
                    }
                }
            }
            for (int d = 0; d < out.length; d++) {
                out[d] /= weight;
            }
            return out;
        }
    };

    abstract double[] pool(float[][] tokens, long[] attentionMask);

    /**
     * The pooled, L2-normalised vector of one input.
     *
     * @param tokens one row per token position (padding positions included)
     * @param attentionMask 1 for real tokens, 0 for padding; as long as {@code tokens}
     */
    public float[] embed(float[][] tokens, long[] attentionMask) {
        if (tokens.length != attentionMask.length) {
            throw new IllegalArgumentException(tokens.length + " token vectors but a mask of " + attentionMask.length);
        }
        double[] pooled = pool(tokens, attentionMask);
        double norm = 0;
        for (double v : pooled) {
            norm += v * v;
        }
        norm = Math.sqrt(norm);
        float[] out = new float[pooled.length];
        for (int d = 0; d < out.length; d++) {
            out[d] = (float) (pooled[d] / norm);
        }
        return out;
    }
}
