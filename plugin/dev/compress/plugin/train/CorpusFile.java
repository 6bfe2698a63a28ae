package dev.compress.plugin.train;

import dev.compress.training.data.MappedVectors;

import org.opensearch.core.common.unit.ByteSizeValue;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The corpus of one training job in a temporary {@code .f32} file (little-endian float32, row-major,
 * as {@link MappedVectors} reads it): vectors are appended as the index is read, so only their ids
 * stay on the heap, then the file is mapped for training. {@link #close} deletes it; a mapping made
 * before stays readable, and the disk space returns when the mapping is collected.
 */
final class CorpusFile implements Closeable {

    /** Start of every corpus file's name, so leftovers in the temporary directory are recognisable. */
    static final String PREFIX = "compress-corpus-";
    private static final int BUFFER_BYTES = 1 << 20;

    private final Path path;
    private final int dim;
    private final FileChannel channel;
    private final ByteBuffer buffer;
    private final List<String> ids = new ArrayList<>();

    private CorpusFile(Path path, int dim) throws IOException {
        this.path = path;
        this.dim = dim;
        this.channel = FileChannel.open(path, StandardOpenOption.WRITE);
        this.buffer = ByteBuffer.allocate(Math.max(BUFFER_BYTES, Float.BYTES * dim)).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** A new, empty corpus file of {@code dim}-dimensional vectors in {@code dir}. */
    static CorpusFile create(Path dir, int dim) throws IOException {
        Path path = Files.createTempFile(dir, PREFIX, ".f32");
        try {
            return new CorpusFile(path, dim);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(path);
            throw e;
        }
    }

    /** Bytes of the file for {@code documents} vectors of {@code dim} floats. */
    static long bytes(long documents, int dim) {
        return documents * dim * Float.BYTES;
    }

    /**
     * Fails when {@code dir} has less usable space than the file for the corpus index {@code index}
     * needs. Checked once, before writing: a disk that fills meanwhile fails the write instead.
     */
    static void requireRoom(Path dir, String index, long documents, int dim) throws IOException {
        long usable = Files.getFileStore(dir).getUsableSpace();
        if (bytes(documents, dim) > usable) {
            throw new IllegalStateException(
                describe(index, documents, dim) + " in [" + dir + "], which has " + new ByteSizeValue(usable) + " usable"
            );
        }
    }

    /** The start of every refusal of a corpus for its size: what it holds and the file it needs. */
    static String describe(String index, long documents, int dim) {
        return "[corpus.index] [" + index + "] holds " + documents + " documents of " + dim + " dimensions: training spills them to a "
            + new ByteSizeValue(bytes(documents, dim)) + " file";
    }

    Path path() {
        return path;
    }

    /** Appends one row; {@code vector} must hold {@code dim} values. */
    void append(String id, float[] vector) throws IOException {
        if (buffer.remaining() < Float.BYTES * vector.length) {
            flush();
        }
        for (float v : vector) {
            buffer.putFloat(v);
        }
        ids.add(id);
    }

    /** Writes what is buffered and maps the file; nothing may be appended after. */
    MappedVectors map() throws IOException {
        flush();
        channel.close();
        return new MappedVectors(path, ids, dim);
    }

    private void flush() throws IOException {
        buffer.flip();
        while (buffer.hasRemaining()) {
            channel.write(buffer);
        }
        buffer.clear();
    }

    /** Deletes the file, whether or not it was mapped. */
    @Override
    public void close() throws IOException {
        try {
            channel.close();
        } finally {
            Files.deleteIfExists(path);
        }
    }
}
