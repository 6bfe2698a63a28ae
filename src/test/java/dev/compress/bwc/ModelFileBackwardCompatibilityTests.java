package dev.compress.bwc;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import dev.compress.training.inference.CpuEncoders;
import dev.compress.training.model.ModelArtifact;
import dev.compress.training.model.ModelFile;
import dev.compress.training.model.ModelFormatException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.zip.CRC32;
import org.junit.Test;

/**
 * Model files written by earlier versions are still read: each resource is a model file written by
 * {@link BackwardCompatibilityResources} with what the writing version's reader found in it, and
 * today's reader must find the same metadata and encode the same inputs to the same outputs. A new
 * resource is added whenever {@link ModelFile#FORMAT_VERSION} is raised, by the rules of {@link
 * IndexBackwardCompatibilityTests}; today's reader reads only its own version, so raising it means
 * either reading the older versions too or saying in the docs that older models must be trained
 * again.
 */
public class ModelFileBackwardCompatibilityTests {

    /** Every model file version still read, oldest first. */
    private static final List<Integer> VERSIONS = List.of(1);

    private byte[] resource(String name) throws IOException {
        try (InputStream in = getClass().getResourceAsStream(name)) {
            assertNotNull("resource " + name + " is missing", in);
            return in.readAllBytes();
        }
    }

    @Test
    public void everyModelResourceReadsAsItsWriterReadIt() throws IOException {
        for (int version : VERSIONS) {
            ModelExpectations expected;
            try (InputStream json =
                    getClass().getResourceAsStream(BackwardCompatibilityResources.modelExpectations(version))) {
                expected = BackwardCompatibilityResources.readModelExpectations(json);
            }
            assertEquals(version, expected.formatVersion());
            ModelArtifact model = ModelFile.fromBytes(resource(BackwardCompatibilityResources.modelResource(version)));
            assertEquals(expected.method(), model.metadata().method());
            assertEquals(expected.inputDimension(), model.metadata().inputDim());
            assertEquals(expected.outputDimensions(), model.metadata().outputDims());
            float[][] outputs = CpuEncoders.forServing(model, model.metadata().maxOutputDim())
                    .encode(expected.inputs().toArray(float[][]::new));
            for (int i = 0; i < outputs.length; i++) {
                // not bit for bit: the Vector API may sum lanes in another order on another machine
                assertArrayEquals("input " + i, expected.outputs().get(i), outputs[i], 1e-5f);
            }
        }
    }

    /** The version field is checked: the same file stamped with the next version is refused, by name. */
    @Test
    public void aFileOfAnUnknownVersionIsRefused() throws IOException {
        int latest = VERSIONS.get(VERSIONS.size() - 1);
        byte[] file = resource(BackwardCompatibilityResources.modelResource(latest));
        ByteBuffer buf = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
        buf.putInt(ModelFile.MAGIC.length, ModelFile.FORMAT_VERSION + 1);
        CRC32 crc = new CRC32();
        crc.update(file, 0, file.length - 8);
        buf.putLong(file.length - 8, crc.getValue());
        ModelFormatException e = assertThrows(ModelFormatException.class, () -> ModelFile.fromBytes(file));
        assertTrue(
                e.getMessage(),
                e.getMessage().contains("unsupported model format version " + (ModelFile.FORMAT_VERSION + 1)));
    }
}
