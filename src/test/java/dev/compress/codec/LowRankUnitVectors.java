package dev.compress.codec;

import java.util.Random;
import org.apache.lucene.util.VectorUtil;

/**
 * Unit vectors with the low intrinsic dimension of real embeddings: a {@code latent}-dimensional
 * Gaussian mapped into {@code dims} dimensions by a fixed random matrix, plus an offset and a little
 * isotropic noise. Draws from the test's own random source, so a failing seed reproduces.
 */
final class LowRankUnitVectors {

    private final float[][] mixing;

    LowRankUnitVectors(Random random, int dims, int latent) {
        mixing = new float[dims][latent];
        for (float[] row : mixing) {
            for (int j = 0; j < latent; j++) {
                row[j] = (float) random.nextGaussian();
            }
        }
    }

    float[] next(Random random) {
        int latent = mixing[0].length;
        float[] z = new float[latent];
        for (int j = 0; j < latent; j++) {
            z[j] = (float) random.nextGaussian();
        }
        float[] v = new float[mixing.length];
        for (int i = 0; i < v.length; i++) {
            float x = 0.1f + 0.3f * (float) random.nextGaussian();
            for (int j = 0; j < latent; j++) {
                x += mixing[i][j] * z[j];
            }
            v[i] = x;
        }
        return VectorUtil.l2normalize(v);
    }
}
