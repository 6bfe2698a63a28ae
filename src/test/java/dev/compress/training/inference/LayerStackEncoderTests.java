package dev.compress.training.inference;

import static org.junit.Assert.assertEquals;

import dev.compress.training.model.ModelArtifact;
import dev.compress.training.model.ModelFileTests;
import java.util.Arrays;
import java.util.List;
import org.junit.Test;

public class LayerStackEncoderTests {

    @Test
    public void anOutputTooShortForAFloatInverseStillComesOutOfUnitLength() {
        float[] tiny = new float[4];
        Arrays.fill(tiny, 1e-40f);
        // one linear layer without bias: an output as short as its input
        ModelArtifact model = ModelFileTests.linearModel(4, 2, 0.5f);
        for (Encoder encoder : List.of(new JavaEncoder(model, 2), new VectorApiEncoder(model, 2))) {
            float[] out = encoder.encode(new float[][] {tiny})[0];
            assertEquals(encoder + " " + Arrays.toString(out), (float) Math.sqrt(0.5), out[0], 1e-6f);
            assertEquals((float) Math.sqrt(0.5), out[1], 1e-6f);
        }
    }
}
