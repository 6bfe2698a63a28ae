package dev.compress.demo.embed;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * Writes one {@code <name>.f32} / {@code <name>.ids} pair of the shared embeddings layout
 * (little-endian float32 rows, no header; one id per line) so that an interrupted run resumes.
 * Rows go to {@code <name>.f32.partial} and their ids to {@code <name>.ids.partial}, floats first;
 * on reopening, rows without an id are cut off, and a partial file whose ids are not the expected
 * prefix is started over. {@link #complete} renames both into place.
 */
final class ResumableVectorFile implements AutoCloseable {

    private final Path floats;
    private final Path ids;
    private final Path partialFloats;
    private final Path partialIds;
    private final List<String> expectedIds;
    private final int dim;
    private final FileChannel floatChannel;
    private final FileChannel idChannel;
    private int rows;

    private ResumableVectorFile(Path dir, String name, List<String> expectedIds, int dim) throws IOException {
        this.floats = dir.resolve(name + ".f32");
        this.ids = dir.resolve(name + ".ids");
        this.partialFloats = dir.resolve(name + ".f32.partial");
        this.partialIds = dir.resolve(name + ".ids.partial");
        this.expectedIds = expectedIds;
        this.dim = dim;
        this.rows = resumableRows();
        this.floatChannel = FileChannel.open(partialFloats, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        this.idChannel = FileChannel.open(partialIds, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        floatChannel.truncate((long) rows * dim * Float.BYTES).position((long) rows * dim * Float.BYTES);
        idChannel.position(idChannel.size());
    }

    /** Opens (or resumes) {@code dir/<name>.f32.partial} for rows with the given ids, in order. */
    static ResumableVectorFile open(Path dir, String name, List<String> expectedIds, int dim) throws IOException {
        Files.createDirectories(dir);
        return new ResumableVectorFile(dir, name, expectedIds, dim);
    }

    /** True when {@code dir/<name>.f32} and {@code .ids} exist and the ids are exactly {@code expectedIds}. */
    static boolean isComplete(Path dir, String name, List<String> expectedIds, int dim) throws IOException {
        Path f32 = dir.resolve(name + ".f32");
        Path idFile = dir.resolve(name + ".ids");
        return Files.exists(f32)
                && Files.exists(idFile)
                && Files.size(f32) == (long) expectedIds.size() * dim * Float.BYTES
                && Files.readAllLines(idFile, StandardCharsets.UTF_8).equals(expectedIds);
    }

    /** Rows already written (by this or an earlier run). */
    int rows() {
        return rows;
    }

    void append(float[][] vectors) throws IOException {
        if (rows + vectors.length > expectedIds.size()) {
            throw new IllegalStateException(
                    "appending " + vectors.length + " rows after " + rows + " of " + expectedIds.size());
        }
        ByteBuffer bytes =
                ByteBuffer.allocate(vectors.length * dim * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        StringBuilder idLines = new StringBuilder();
        for (int i = 0; i < vectors.length; i++) {
            if (vectors[i].length != dim) {
                throw new IllegalArgumentException("row of dimension " + vectors[i].length + ", expected " + dim);
            }
            bytes.asFloatBuffer().put(i * dim, vectors[i]);
            idLines.append(expectedIds.get(rows + i)).append('\n');
        }
        writeFully(floatChannel, bytes);
        floatChannel.force(false);
        writeFully(idChannel, ByteBuffer.wrap(idLines.toString().getBytes(StandardCharsets.UTF_8)));
        idChannel.force(false);
        rows += vectors.length;
    }

    /** Moves the partial files to {@code <name>.f32} and {@code <name>.ids}; every row must be written. */
    void complete() throws IOException {
        if (rows != expectedIds.size()) {
            throw new IllegalStateException(rows + " of " + expectedIds.size() + " rows written");
        }
        close();
        Files.move(partialFloats, floats, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        Files.move(partialIds, ids, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** Rows of an earlier run that can be kept: complete float rows with an id, ids a prefix of the expected ones. */
    private int resumableRows() throws IOException {
        if (!Files.exists(partialFloats) || !Files.exists(partialIds)) {
            return startOver();
        }
        List<String> written = Files.readAllLines(partialIds, StandardCharsets.UTF_8);
        long floatRows = Files.size(partialFloats) / ((long) dim * Float.BYTES);
        boolean prefix = written.size() <= expectedIds.size() && written.equals(expectedIds.subList(0, written.size()));
        if (!prefix || floatRows < written.size()) {
            return startOver();
        }
        return written.size();
    }

    private int startOver() throws IOException {
        Files.deleteIfExists(partialFloats);
        Files.deleteIfExists(partialIds);
        return 0;
    }

    private static void writeFully(FileChannel channel, ByteBuffer buffer) throws IOException {
        while (buffer.hasRemaining()) {
            channel.write(buffer);
        }
    }

    @Override
    public void close() throws IOException {
        try (floatChannel;
                idChannel) {
            // closing both, even if one fails
        }
    }
}
