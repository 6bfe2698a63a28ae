package dev.compress.training.model;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.Test;

public class ModelFileTests {

    /** A small MLP-shaped model with every layer type and random weights. */
    public static ModelArtifact sampleModel(long seed, int in, int hidden, int out) {
        Random rnd = new Random(seed);
        List<LayerSpec> layers = List.of(
                LayerSpec.linear("fc1", in, hidden),
                LayerSpec.batchNorm("bn1", hidden, 1e-5),
                LayerSpec.relu("relu1", hidden),
                LayerSpec.linear("fc2", hidden, out));
        Map<String, Tensor> tensors = new LinkedHashMap<>();
        for (LayerSpec layer : layers) {
            layer.requiredTensors().forEach((name, shape) -> {
                float[] v = new float[Arrays.stream(shape).reduce(1, (a, b) -> a * b)];
                for (int i = 0; i < v.length; i++) {
                    v[i] = name.endsWith("running_var") ? 0.5f + rnd.nextFloat() : (float) rnd.nextGaussian() * 0.3f;
                }
                tensors.put(name, new Tensor(name, shape, v));
            });
        }
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("lr", 2e-4);
        params.put("note", "unicode ✓");
        ModelMetadata meta = new ModelMetadata(
                "dive",
                in,
                List.of(out / 2, out),
                ModelMetadata.OUTPUT_EMBEDDING,
                ModelMetadata.NORM_L2,
                4,
                layers,
                Map.of(),
                params,
                Map.of("ndcg@10", 0.5));
        return new ModelArtifact(meta, tensors);
    }

    /** A model of one linear layer from {@code in} to {@code out} dimensions, every weight {@code weight}, no bias. */
    public static ModelArtifact linearModel(int in, int out, float weight) {
        List<LayerSpec> layers = List.of(LayerSpec.linear("fc1", in, out));
        Map<String, Tensor> tensors = new LinkedHashMap<>();
        layers.get(0).requiredTensors().forEach((name, shape) -> {
            float[] values = new float[Arrays.stream(shape).reduce(1, (a, b) -> a * b)];
            Arrays.fill(values, name.endsWith("bias") ? 0 : weight);
            tensors.put(name, new Tensor(name, shape, values));
        });
        return new ModelArtifact(
                new ModelMetadata(
                        "pca",
                        in,
                        List.of(out),
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
    public void roundTripIsBitExact() {
        ModelArtifact model = sampleModel(1, 12, 8, 6);
        byte[] bytes = ModelFile.toBytes(model);
        ModelArtifact back = ModelFile.fromBytes(bytes);
        assertEquals(model.metadata(), back.metadata());
        assertEquals(model.tensors().keySet(), back.tensors().keySet());
        for (String name : model.tensors().keySet()) {
            float[] a = model.tensor(name).data();
            float[] b = back.tensor(name).data();
            assertEquals(a.length, b.length);
            for (int i = 0; i < a.length; i++) {
                assertEquals(name, Float.floatToRawIntBits(a[i]), Float.floatToRawIntBits(b[i]));
            }
            assertArrayEquals(model.tensor(name).shape(), back.tensor(name).shape());
        }
        assertArrayEquals(bytes, ModelFile.toBytes(back));
    }

    @Test
    public void everyFlippedByteIsRejected() {
        byte[] bytes = ModelFile.toBytes(sampleModel(2, 6, 4, 4));
        for (int pos = 0; pos < bytes.length; pos += 7) {
            byte[] bad = bytes.clone();
            bad[pos] ^= 0x10;
            ModelFormatException e =
                    assertThrows("flip at " + pos, ModelFormatException.class, () -> ModelFile.fromBytes(bad));
            assertTrue(
                    e.getMessage(),
                    e.getMessage().contains("corrupted") || e.getMessage().contains("magic"));
        }
    }

    @Test
    public void truncatedFileIsRejectedWithClearMessage() {
        byte[] bytes = ModelFile.toBytes(sampleModel(3, 6, 4, 4));
        for (int len : new int[] {0, 10, bytes.length / 2, bytes.length - 1}) {
            ModelFormatException e =
                    assertThrows(ModelFormatException.class, () -> ModelFile.fromBytes(Arrays.copyOf(bytes, len)));
            assertTrue(
                    e.getMessage(),
                    e.getMessage().contains("truncated") || e.getMessage().contains("corrupted"));
        }
    }

    @Test
    public void shapeMismatchIsRejectedEvenWithValidChecksum() {
        ModelArtifact model = sampleModel(4, 6, 4, 4);
        Map<String, Tensor> tensors = new LinkedHashMap<>(model.tensors());
        tensors.put("fc2.bias", new Tensor("fc2.bias", new int[] {3}, new float[3]));
        ModelFormatException e =
                assertThrows(ModelFormatException.class, () -> new ModelArtifact(model.metadata(), tensors));
        assertTrue(
                e.getMessage(),
                e.getMessage().contains("fc2.bias") && e.getMessage().contains("expected [4]"));
        tensors.remove("fc2.bias");
        e = assertThrows(ModelFormatException.class, () -> new ModelArtifact(model.metadata(), tensors));
        assertTrue(e.getMessage(), e.getMessage().contains("missing tensor 'fc2.bias'"));
    }

    @Test
    public void unknownVersionIsRejected() {
        byte[] bytes = ModelFile.toBytes(sampleModel(5, 6, 4, 4));
        bytes[8] = 9; // version field, then fix the checksum so only the version is wrong
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        crc.update(bytes, 0, bytes.length - 8);
        java.nio.ByteBuffer.wrap(bytes)
                .order(java.nio.ByteOrder.LITTLE_ENDIAN)
                .putLong(bytes.length - 8, crc.getValue());
        ModelFormatException e = assertThrows(ModelFormatException.class, () -> ModelFile.fromBytes(bytes));
        assertTrue(e.getMessage(), e.getMessage().contains("version 9"));
    }
}
