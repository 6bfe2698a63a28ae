package dev.compress.training.inference;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import ai.djl.Device;
import dev.compress.training.model.LayerSpec;
import dev.compress.training.model.ModelArtifact;
import dev.compress.training.model.ModelFile;
import dev.compress.training.model.ModelFormatException;
import dev.compress.training.model.ModelMetadata;
import dev.compress.training.model.Tensor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.Test;

/**
 * Nested (Matryoshka) models with the residual skip layer: what Matryoshka-Adaptor, Search-Adaptor,
 * temperature MRL (adapter) and SMEC (adapter + permutation) export. They round-trip through the model
 * file and the Java and DJL inference paths agree at every served dim.
 */
public class NestedModelParityTests {

    /** Residual adapter D -> D (+ an optional D x D permutation as SMEC exports), serving {@code dims}. */
    public static ModelArtifact residualModel(long seed, int d, int hidden, List<Integer> dims, boolean permutation) {
        Random rnd = new Random(seed);
        List<LayerSpec> layers = new ArrayList<>(List.of(
                LayerSpec.linear("adapter.fc1", d, hidden),
                LayerSpec.relu("adapter.relu", hidden),
                LayerSpec.linear("adapter.fc2", hidden, d),
                LayerSpec.addInput("adapter.skip", d)));
        if (permutation) {
            layers.add(LayerSpec.linear("select", d, d));
        }
        Map<String, Tensor> tensors = new LinkedHashMap<>();
        for (LayerSpec layer : layers) {
            layer.requiredTensors().forEach((name, shape) -> {
                float[] v = new float[Arrays.stream(shape).reduce(1, (a, b) -> a * b)];
                if (name.startsWith("select.weight")) {
                    int[] perm = new int[d];
                    for (int i = 0; i < d; i++) {
                        perm[i] = (i * 7 + 3) % d;
                    }
                    for (int i = 0; i < d; i++) {
                        v[i * d + perm[i]] = 1f;
                    }
                } else if (!name.startsWith("select")) {
                    for (int i = 0; i < v.length; i++) {
                        v[i] = (float) rnd.nextGaussian() * 0.1f;
                    }
                }
                tensors.put(name, new Tensor(name, shape, v));
            });
        }
        ModelMetadata meta = new ModelMetadata(
                "matryoshka_adaptor",
                d,
                dims,
                ModelMetadata.OUTPUT_EMBEDDING,
                ModelMetadata.NORM_L2,
                1,
                layers,
                Map.of(),
                Map.of("dims", dims),
                Map.of());
        return new ModelArtifact(meta, tensors);
    }

    @Test
    public void nestedModelsRoundTripAndJavaMatchesDjl() {
        for (boolean perm : new boolean[] {false, true}) {
            ModelArtifact model = residualModel(4, 384, 384, List.of(64, 128, 192), perm);
            byte[] bytes = ModelFile.toBytes(model);
            ModelArtifact back = ModelFile.fromBytes(bytes);
            assertEquals(model.metadata(), back.metadata());
            assertArrayEquals(bytes, ModelFile.toBytes(back));
            Random rnd = new Random(8);
            float[][] batch = new float[70][384];
            for (float[] row : batch) {
                for (int j = 0; j < row.length; j++) {
                    row[j] = (float) rnd.nextGaussian() * 0.05f;
                }
            }
            for (int dim : back.metadata().outputDims()) {
                try (JavaEncoder java = new JavaEncoder(back, dim);
                        DjlEncoder djl = new DjlEncoder(back, dim, Device.cpu())) {
                    float[][] a = java.encode(batch);
                    float[][] b = djl.encode(batch);
                    double maxDiff = 0;
                    for (int i = 0; i < batch.length; i++) {
                        assertEquals(dim, a[i].length);
                        for (int j = 0; j < dim; j++) {
                            maxDiff = Math.max(maxDiff, Math.abs(a[i][j] - b[i][j]));
                        }
                    }
                    assertEquals(
                            "max abs difference at dim " + dim + " (permutation " + perm + ")", 0.0, maxDiff, 1e-5);
                }
            }
        }
    }

    @Test
    public void identityAdapterReturnsThePrefix() {
        ModelArtifact m = residualModel(1, 16, 8, List.of(4, 16), false);
        Map<String, Tensor> zeroed = new LinkedHashMap<>(m.tensors());
        zeroed.put("adapter.fc2.weight", new Tensor("adapter.fc2.weight", new int[] {16, 8}, new float[128]));
        zeroed.put("adapter.fc2.bias", new Tensor("adapter.fc2.bias", new int[] {16}, new float[16]));
        ModelArtifact identity = new ModelArtifact(m.metadata(), zeroed);
        float[] x = new float[16];
        for (int j = 0; j < 16; j++) {
            x[j] = j - 5;
        }
        try (JavaEncoder enc = new JavaEncoder(identity, 4)) {
            float[] y = enc.encode(x);
            double n = Math.sqrt(25 + 16 + 9 + 4);
            assertArrayEquals(
                    new float[] {(float) (-5 / n), (float) (-4 / n), (float) (-3 / n), (float) (-2 / n)}, y, 1e-6f);
        }
    }

    @Test
    public void skipLayerMustMatchTheInputDimension() {
        List<LayerSpec> layers = List.of(LayerSpec.linear("p", 8, 4), LayerSpec.addInput("skip", 4));
        Map<String, Tensor> t = new LinkedHashMap<>();
        t.put("p.weight", new Tensor("p.weight", new int[] {4, 8}, new float[32]));
        t.put("p.bias", new Tensor("p.bias", new int[] {4}, new float[4]));
        ModelFormatException e = assertThrows(
                ModelFormatException.class,
                () -> new ModelArtifact(
                        new ModelMetadata(
                                "x",
                                8,
                                List.of(4),
                                ModelMetadata.OUTPUT_EMBEDDING,
                                ModelMetadata.NORM_L2,
                                1,
                                layers,
                                Map.of(),
                                Map.of(),
                                Map.of()),
                        t));
        assertTrue(e.getMessage(), e.getMessage().contains("add_input"));
    }
}
