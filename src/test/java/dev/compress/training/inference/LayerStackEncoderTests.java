package dev.compress.training.inference;

import static org.junit.Assert.assertEquals;

import dev.compress.training.model.LayerSpec;
import dev.compress.training.model.ModelArtifact;
import dev.compress.training.model.ModelMetadata;
import dev.compress.training.model.Tensor;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.Test;

public class LayerStackEncoderTests {

    /** One linear layer from 4 to 2 dimensions without bias, its output L2-normalised. */
    private static ModelArtifact linearModel() {
        List<LayerSpec> layers = List.of(LayerSpec.linear("fc1", 4, 2));
        Map<String, Tensor> tensors = new LinkedHashMap<>();
        layers.get(0).requiredTensors().forEach((name, shape) -> {
            float[] values = new float[Arrays.stream(shape).reduce(1, (a, b) -> a * b)];
            Arrays.fill(values, name.endsWith("bias") ? 0 : 0.5f);
            tensors.put(name, new Tensor(name, shape, values));
        });
        return new ModelArtifact(
                new ModelMetadata(
                        "pca",
                        4,
                        List.of(2),
                        ModelMetadata.OUTPUT_EMBEDDING,
                        ModelMetadata.NORM_L2,
                        4,
                        layers,
                        Map.of(),
                        Map.of(),
                        Map.of()),
                tensors);
    }

    @Test
    public void anOutputTooShortForAFloatInverseStillComesOutOfUnitLength() {
        float[] tiny = new float[4];
        Arrays.fill(tiny, 1e-40f);
        for (Encoder encoder : List.of(new JavaEncoder(linearModel(), 2), new VectorApiEncoder(linearModel(), 2))) {
            float[] out = encoder.encode(new float[][] {tiny})[0];
            assertEquals(encoder + " " + Arrays.toString(out), (float) Math.sqrt(0.5), out[0], 1e-6f);
            assertEquals((float) Math.sqrt(0.5), out[1], 1e-6f);
        }
    }
}
