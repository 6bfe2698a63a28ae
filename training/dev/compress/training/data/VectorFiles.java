package dev.compress.training.data;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Reads the precomputed embedding files: {@code <name>.f32} (little-endian float32, row-major,
 * no header) and {@code <name>.ids} (one id per line, line i = row i), either onto the heap
 * ({@link #read}, in chunks so no second full-size byte copy is made) or memory-mapped ({@link #map}).
 */
public final class VectorFiles {

    private static final int CHUNK_BYTES = 1 << 20;

    private VectorFiles() {}

    /** Reads {@code dir/<name>.f32} with {@code dir/<name>.ids}; the dimension follows from the sizes. */
    public static VectorSet read(Path dir, String name) throws IOException {
        return read(dir.resolve(name + ".f32"), dir.resolve(name + ".ids"));
    }

    public static VectorSet read(Path f32, Path idsFile) throws IOException {
        List<String> ids = readIds(idsFile);
        int dim = dimension(f32, ids, idsFile);
        if ((long) ids.size() * dim > Integer.MAX_VALUE - 8) {
            throw new IOException(f32 + " holds more floats than one array can; map it instead");
        }
        float[] data = new float[ids.size() * dim];
        try (InputStream in = Files.newInputStream(f32)) {
            byte[] chunk = new byte[CHUNK_BYTES];
            int filled = 0;
            int pos = 0;
            int n;
            while ((n = in.read(chunk, filled, chunk.length - filled)) > 0) {
                filled += n;
                int whole = filled - filled % 4;
                ByteBuffer.wrap(chunk, 0, whole)
                        .order(ByteOrder.LITTLE_ENDIAN)
                        .asFloatBuffer()
                        .get(data, pos, whole / 4);
                pos += whole / 4;
                System.arraycopy(chunk, whole, chunk, 0, filled - whole);
                filled -= whole;
            }
            if (pos != data.length) {
                throw new IOException(f32 + " ended after " + pos + " floats, expected " + data.length);
            }
        }
        return new VectorSet(ids, data, dim);
    }

    /** Maps {@code dir/<name>.f32} with {@code dir/<name>.ids}: the floats stay in the file. */
    public static MappedVectors map(Path dir, String name) throws IOException {
        return map(dir.resolve(name + ".f32"), dir.resolve(name + ".ids"));
    }

    public static MappedVectors map(Path f32, Path idsFile) throws IOException {
        List<String> ids = readIds(idsFile);
        return new MappedVectors(f32, ids, dimension(f32, ids, idsFile));
    }

    /** The row length implied by the file size, which must be a whole number of float32 rows per id. */
    private static int dimension(Path f32, List<String> ids, Path idsFile) throws IOException {
        long bytes = Files.size(f32);
        if (ids.isEmpty()) {
            throw new IOException(idsFile + " lists no ids");
        }
        if (bytes == 0 || bytes % (4L * ids.size()) != 0) {
            throw new IOException(f32 + " has " + bytes + " bytes, not a whole number of float32 rows for " + ids.size()
                    + " ids in " + idsFile);
        }
        return Math.toIntExact(bytes / 4 / ids.size());
    }

    static List<String> readIds(Path idsFile) throws IOException {
        return Files.readAllLines(idsFile).stream()
                .map(String::strip)
                .filter(s -> !s.isEmpty())
                .toList();
    }
}
