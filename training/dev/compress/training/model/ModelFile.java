package dev.compress.training.model;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.CRC32;

/**
 * The model file: one self-describing, versioned, checksummed blob, little-endian throughout.
 * <pre>
 *   magic        8 bytes  "CMPRSMDL"
 *   version      int32    {@link #FORMAT_VERSION}
 *   metadata     int32 length + UTF-8 JSON ({@link ModelMetadata})
 *   tensorCount  int32
 *   per tensor   int32 name length + UTF-8 name, int32 rank, rank x int32 dims, float32 values
 *   crc32        int64    CRC32 of every byte before it
 * </pre>
 * Reading checks, in order, the size, the magic, the checksum, the version, then the structure and
 * every shape against the metadata (see {@link ModelArtifact}); any failure is a
 * {@link ModelFormatException} that says what is wrong.
 */
public final class ModelFile {

    public static final byte[] MAGIC = "CMPRSMDL".getBytes(StandardCharsets.US_ASCII);
    public static final int FORMAT_VERSION = 1;
    private static final int MIN_SIZE = MAGIC.length + 4 + 4 + 4 + 8;
    private static final ObjectMapper JSON = new ObjectMapper();

    private ModelFile() {}

    public static byte[] toBytes(ModelArtifact artifact) {
        byte[] meta;
        try {
            meta = JSON.writeValueAsBytes(artifact.metadata());
        } catch (JsonProcessingException e) {
            throw new ModelFormatException("cannot serialise metadata: " + e.getMessage(), e);
        }
        long size = MIN_SIZE + meta.length;
        for (Tensor t : artifact.tensors().values()) {
            size += 4
                    + t.name().getBytes(StandardCharsets.UTF_8).length
                    + 4
                    + 4L * t.shape().length
                    + 4L * t.data().length;
        }
        if (size > Integer.MAX_VALUE - 8) {
            throw new ModelFormatException("model of " + size + " bytes exceeds the 2 GB single-blob limit");
        }
        ByteBuffer buf = ByteBuffer.allocate((int) size).order(ByteOrder.LITTLE_ENDIAN);
        buf.put(MAGIC)
                .putInt(FORMAT_VERSION)
                .putInt(meta.length)
                .put(meta)
                .putInt(artifact.tensors().size());
        for (Tensor t : artifact.tensors().values()) {
            byte[] name = t.name().getBytes(StandardCharsets.UTF_8);
            buf.putInt(name.length).put(name).putInt(t.shape().length);
            for (int d : t.shape()) {
                buf.putInt(d);
            }
            buf.asFloatBuffer().put(t.data());
            buf.position(buf.position() + 4 * t.data().length);
        }
        CRC32 crc = new CRC32();
        crc.update(buf.array(), 0, buf.position());
        buf.putLong(crc.getValue());
        return buf.array();
    }

    public static ModelArtifact fromBytes(byte[] bytes) {
        if (bytes.length < MIN_SIZE) {
            throw new ModelFormatException(
                    "model file truncated: " + bytes.length + " bytes, a valid file has at least " + MIN_SIZE);
        }
        ByteBuffer buf = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        byte[] magic = new byte[MAGIC.length];
        buf.get(magic);
        if (!java.util.Arrays.equals(magic, MAGIC)) {
            throw new ModelFormatException("not a model file: magic bytes are not \"CMPRSMDL\"");
        }
        CRC32 crc = new CRC32();
        crc.update(bytes, 0, bytes.length - 8);
        long stored = buf.getLong(bytes.length - 8);
        if (crc.getValue() != stored) {
            throw new ModelFormatException(String.format(
                    "model file corrupted or truncated: CRC32 of the content is %08x, the file records %08x",
                    crc.getValue(), stored));
        }
        int version = buf.getInt();
        if (version != FORMAT_VERSION) {
            throw new ModelFormatException(
                    "unsupported model format version " + version + " (this reader knows " + FORMAT_VERSION + ")");
        }
        ByteBuffer body =
                buf.slice(buf.position(), bytes.length - 8 - buf.position()).order(ByteOrder.LITTLE_ENDIAN);
        try {
            ModelMetadata metadata = JSON.readValue(readBytes(body, "metadata"), ModelMetadata.class);
            int count = body.getInt();
            if (count < 0) {
                throw new ModelFormatException("negative tensor count " + count);
            }
            Map<String, Tensor> tensors = new LinkedHashMap<>();
            for (int i = 0; i < count; i++) {
                String name = new String(readBytes(body, "tensor name"), StandardCharsets.UTF_8);
                int rank = body.getInt();
                if (rank < 1 || rank > 8) {
                    throw new ModelFormatException("tensor '" + name + "' has invalid rank " + rank);
                }
                int[] shape = new int[rank];
                long n = 1;
                for (int r = 0; r < rank; r++) {
                    shape[r] = body.getInt();
                    n *= Math.max(shape[r], 0);
                }
                if (n * 4 > body.remaining()) {
                    throw new ModelFormatException(
                            "tensor '" + name + "' needs " + n * 4 + " bytes, only " + body.remaining() + " remain");
                }
                float[] data = new float[(int) n];
                body.asFloatBuffer().get(data);
                body.position(body.position() + 4 * data.length);
                if (tensors.put(name, new Tensor(name, shape, data)) != null) {
                    throw new ModelFormatException("tensor '" + name + "' appears twice");
                }
            }
            if (body.hasRemaining()) {
                throw new ModelFormatException(body.remaining() + " unexpected bytes after the last tensor");
            }
            return new ModelArtifact(metadata, tensors);
        } catch (BufferUnderflowException e) {
            throw new ModelFormatException("model file structure ends early (inconsistent lengths)", e);
        } catch (IOException e) {
            throw new ModelFormatException("model metadata is not valid JSON: " + e.getMessage(), e);
        } catch (IllegalArgumentException e) {
            throw new ModelFormatException("invalid model content: " + e.getMessage(), e);
        }
    }

    public static void write(ModelArtifact artifact, Path file) throws IOException {
        Files.write(file, toBytes(artifact));
    }

    public static ModelArtifact read(Path file) throws IOException {
        return fromBytes(Files.readAllBytes(file));
    }

    private static byte[] readBytes(ByteBuffer body, String what) {
        int len = body.getInt();
        if (len < 0 || len > body.remaining()) {
            throw new ModelFormatException(
                    what + " length " + len + " exceeds the " + body.remaining() + " bytes left");
        }
        byte[] out = new byte[len];
        body.get(out);
        return out;
    }
}
