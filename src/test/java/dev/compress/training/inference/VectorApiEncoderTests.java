package dev.compress.training.inference;

import static org.junit.Assert.assertEquals;

import dev.compress.training.model.LayerSpec;
import dev.compress.training.model.ModelArtifact;
import dev.compress.training.model.ModelMetadata;
import dev.compress.training.model.Tensor;
import java.util.List;
import java.util.Map;
import java.util.Random;
import jdk.incubator.vector.FloatVector;
import org.junit.Test;

/**
 * The Vector API encoder's output is the same bits whether its code runs interpreted or compiled: each
 * output equals a scalar computation in one fixed order (a fused multiply-add per lane, the lanes added
 * pairwise in a fixed tree, then the scalar tail and the bias), for the first call and after thousands
 * more, by which time the JIT has compiled the kernels.
 */
public class VectorApiEncoderTests {

    private static final int LANES = FloatVector.SPECIES_PREFERRED.length();

    @Test
    public void outputIsTheSameBitsColdAndCompiled() {
        Random random = new Random(5);
        // 389 inputs: a scalar tail at every vector width; 67 outputs: the 4-output and 2-output kernels' remainders
        int in = 389;
        int out = 67;
        float[] w = gaussian(random, out * in);
        float[] b = gaussian(random, out);
        LayerSpec layer = LayerSpec.linear("fc1", in, out);
        ModelArtifact model = new ModelArtifact(
                new ModelMetadata(
                        "pca",
                        in,
                        List.of(out),
                        ModelMetadata.OUTPUT_EMBEDDING,
                        ModelMetadata.NORM_NONE,
                        4,
                        List.of(layer),
                        Map.of(),
                        Map.of(),
                        Map.of()),
                Map.of(
                        "fc1.weight", new Tensor("fc1.weight", new int[] {out, in}, w),
                        "fc1.bias", new Tensor("fc1.bias", new int[] {out}, b)));
        float[][] batch = new float[7][];
        for (int r = 0; r < batch.length; r++) {
            batch[r] = gaussian(random, in);
        }
        try (VectorApiEncoder encoder = new VectorApiEncoder(model, out)) {
            for (int call = 0; call < 3000; call++) {
                float[][] y = call % 2 == 0 ? encoder.encode(batch) : new float[][] {encoder.encode(batch[call % 7])};
                for (int r = 0; r < y.length; r++) {
                    float[] x = y.length == 1 ? batch[call % 7] : batch[r];
                    for (int o = 0; o < out; o++) {
                        assertEquals(
                                "call " + call + " row " + r + " output " + o,
                                Float.floatToRawIntBits(reference(w, b[o], o, in, x)),
                                Float.floatToRawIntBits(y[r][o]));
                    }
                }
            }
        }
    }

    private static float reference(float[] w, float bias, int o, int in, float[] x) {
        int bound = in - in % LANES;
        float[] lanes = new float[LANES];
        for (int i = 0; i < bound; i += LANES) {
            for (int l = 0; l < LANES; l++) {
                lanes[l] = Math.fma(x[i + l], w[o * in + i + l], lanes[l]);
            }
        }
        // the lanes added pairwise: lane i and lane i ^ h, for h from half the width down to 1
        for (int h = LANES / 2; h >= 1; h /= 2) {
            float[] added = new float[LANES];
            for (int l = 0; l < LANES; l++) {
                added[l] = lanes[l] + lanes[l ^ h];
            }
            lanes = added;
        }
        float sum = lanes[0];
        float tail = 0;
        for (int i = bound; i < in; i++) {
            tail += x[i] * w[o * in + i];
        }
        return sum + tail + bias;
    }

    private static float[] gaussian(Random random, int n) {
        float[] v = new float[n];
        for (int i = 0; i < n; i++) {
            v[i] = (float) random.nextGaussian();
        }
        return v;
    }
}
