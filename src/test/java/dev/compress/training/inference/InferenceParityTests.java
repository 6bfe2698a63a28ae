package dev.compress.training.inference;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import ai.djl.Device;
import dev.compress.training.model.ModelArtifact;
import dev.compress.training.model.ModelFile;
import dev.compress.training.model.ModelFileTests;
import java.util.Arrays;
import java.util.Random;
import org.junit.Test;

/**
 * The three CPU paths (plain Java, Vector API, DJL forward) agree to 1e-5 on a model read back from its
 * file, in batches (whole 4-row kernels and a remainder) and one vector at a time.
 */
public class InferenceParityTests {

    @Test
    public void javaAndVectorApiMatchDjlForward() {
        // 389 inputs: not a multiple of any vector width, so the scalar tails run too; 67 hidden: odd output counts
        for (int[] shape : new int[][] {{384, 256, 64}, {389, 67, 10}}) {
            ModelArtifact model =
                    ModelFile.fromBytes(ModelFile.toBytes(ModelFileTests.sampleModel(9, shape[0], shape[1], shape[2])));
            float[][] batch = gaussian(103, shape[0]);
            for (int dim : model.metadata().outputDims()) {
                try (JavaEncoder java = new JavaEncoder(model, dim);
                        VectorApiEncoder simd = new VectorApiEncoder(model, dim);
                        DjlEncoder djl = new DjlEncoder(model, dim, Device.cpu())) {
                    float[][] expected = djl.encode(batch);
                    assertClose("java " + Arrays.toString(shape) + " at " + dim, expected, java.encode(batch), dim);
                    assertClose(
                            "vector api " + Arrays.toString(shape) + " at " + dim, expected, simd.encode(batch), dim);
                    float[][] single = new float[batch.length][];
                    for (int i = 0; i < batch.length; i++) {
                        single[i] = simd.encode(batch[i]);
                    }
                    assertClose("vector api, one vector a call", expected, single, dim);
                }
            }
        }
    }

    @Test
    public void servingEncoderIsTheVectorApiWhenTheModuleIsPresent() {
        // the test JVMs get --add-modules jdk.incubator.vector, as OpenSearch's jvm.options gives the node
        assertTrue(CpuEncoders.vectorApiAvailable());
        try (Encoder e = CpuEncoders.forServing(ModelFileTests.sampleModel(9, 16, 8, 4), 4)) {
            assertTrue(e.getClass().getName(), e instanceof VectorApiEncoder);
        }
    }

    private static void assertClose(String what, float[][] expected, float[][] actual, int dim) {
        double maxDiff = 0;
        for (int i = 0; i < expected.length; i++) {
            assertEquals(dim, actual[i].length);
            double norm = 0;
            for (int j = 0; j < dim; j++) {
                maxDiff = Math.max(maxDiff, Math.abs(expected[i][j] - actual[i][j]));
                norm += actual[i][j] * actual[i][j];
            }
            assertEquals(1.0, norm, 1e-5);
        }
        assertEquals(what + ": max abs difference", 0.0, maxDiff, 1e-5);
    }

    private static float[][] gaussian(int rows, int dim) {
        Random rnd = new Random(3);
        float[][] batch = new float[rows][dim];
        for (float[] row : batch) {
            for (int j = 0; j < row.length; j++) {
                row[j] = (float) rnd.nextGaussian() * 0.05f;
            }
        }
        return batch;
    }

    @Test
    public void wrongInputWidthIsRejected() {
        ModelArtifact model = ModelFileTests.sampleModel(9, 16, 8, 4);
        try (JavaEncoder java = new JavaEncoder(model, 4);
                VectorApiEncoder simd = new VectorApiEncoder(model, 4)) {
            assertThrows(IllegalArgumentException.class, () -> java.encode(new float[][] {new float[15]}));
            assertThrows(IllegalArgumentException.class, () -> simd.encode(new float[][] {new float[15]}));
        }
        assertThrows(IllegalArgumentException.class, () -> new JavaEncoder(model, 3));
        assertThrows(IllegalArgumentException.class, () -> new VectorApiEncoder(model, 3));
    }
}
