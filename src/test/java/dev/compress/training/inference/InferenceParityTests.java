package dev.compress.training.inference;

import ai.djl.Device;
import dev.compress.training.model.ModelArtifact;
import dev.compress.training.model.ModelFile;
import dev.compress.training.model.ModelFileTests;
import org.junit.Test;

import java.util.Random;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;

/** The plain-Java path and the DJL forward pass agree to 1e-5 on a model read back from its file. */
public class InferenceParityTests {

    @Test
    public void javaMatchesDjlForward() {
        ModelArtifact model = ModelFile.fromBytes(ModelFile.toBytes(ModelFileTests.sampleModel(9, 384, 256, 64)));
        Random rnd = new Random(3);
        float[][] batch = new float[100][384];
        for (float[] row : batch) {
            for (int j = 0; j < row.length; j++) {
                row[j] = (float) rnd.nextGaussian() * 0.05f;
            }
        }
        for (int dim : model.metadata().outputDims()) {
            try (JavaEncoder java = new JavaEncoder(model, dim); DjlEncoder djl = new DjlEncoder(model, dim, Device.cpu())) {
                float[][] a = java.encode(batch);
                float[][] b = djl.encode(batch);
                double maxDiff = 0;
                for (int i = 0; i < batch.length; i++) {
                    assertEquals(dim, a[i].length);
                    double norm = 0;
                    for (int j = 0; j < dim; j++) {
                        maxDiff = Math.max(maxDiff, Math.abs(a[i][j] - b[i][j]));
                        norm += a[i][j] * a[i][j];
                    }
                    assertEquals(1.0, norm, 1e-5);
                }
                assertEquals("max abs difference at dim " + dim, 0.0, maxDiff, 1e-5);
            }
        }
    }

    @Test
    public void wrongInputWidthIsRejected() {
        ModelArtifact model = ModelFileTests.sampleModel(9, 16, 8, 4);
        try (JavaEncoder java = new JavaEncoder(model, 4)) {
            assertThrows(IllegalArgumentException.class, () -> java.encode(new float[][] {new float[15]}));
        }
        assertThrows(IllegalArgumentException.class, () -> new JavaEncoder(model, 3));
    }
}
