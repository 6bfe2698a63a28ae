package dev.compress.plugin.train;

import dev.compress.training.data.MappedVectors;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.opensearch.core.common.unit.ByteSizeValue;

/**
 * The corpus of one training job in a temporary {@code .f32} file (little-endian float32, row-major,
 * as {@link MappedVectors} reads it): vectors are appended as the index is read, so only their ids
 * stay on the heap, then the file is mapped for training. {@link #close} deletes it; a mapping made
 * before stays readable, and the disk space returns when the mapping is collected.
 *
 * <p>A JVM that dies ({@code kill -9}, out of memory) cannot delete its file, so the name carries
 * the process id ({@code compress-corpus-<pid>-<random>.f32}) and a starting node removes the files
 * of processes that no longer run ({@link #removeLeftovers}).
 */
final class CorpusFile implements Closeable {

    /** Start of every corpus file's name, so leftovers in the temporary directory are recognisable. */
    static final String PREFIX = "compress-corpus-";

    static final String SUFFIX = ".f32";
    private static final int BUFFER_BYTES = 1 << 20;
    private static final Logger logger = LogManager.getLogger(CorpusFile.class);

    private final Path path;
    private final int dim;
    private final FileChannel channel;
    private final ByteBuffer buffer;
    private final List<String> ids = new ArrayList<>();

    private CorpusFile(Path path, int dim) throws IOException {
        this.path = path;
        this.dim = dim;
        this.channel = FileChannel.open(path, StandardOpenOption.WRITE);
        this.buffer =
                ByteBuffer.allocate(Math.max(BUFFER_BYTES, Float.BYTES * dim)).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** A new, empty corpus file of {@code dim}-dimensional vectors in {@code dir}. */
    static CorpusFile create(Path dir, int dim) throws IOException {
        Path path = Files.createTempFile(dir, PREFIX + ProcessHandle.current().pid() + "-", SUFFIX);
        try {
            return new CorpusFile(path, dim);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(path);
            throw e;
        }
    }

    /**
     * Deletes the corpus files in {@code dir} that a process which no longer runs left behind, and
     * answers how many. A file is left alone when its process runs: this JVM (another node of it may
     * share the directory, as test clusters do) or any other, since several nodes' temporary
     * directories can be one. Its process is gone when no process has its id, or the one that has
     * it, this JVM included, started after the file was last written (the id was reused). Files
     * named otherwise, also corpus files of versions that did not name the process, are not ours to
     * judge and stay.
     */
    static int removeLeftovers(Path dir) {
        int removed = 0;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, PREFIX + "*" + SUFFIX)) {
            for (Path file : files) {
                try {
                    if (Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)
                            && ownerGone(file)
                            && Files.deleteIfExists(file)) {
                        logger.info("removed [{}]: the training corpus file of a process that no longer runs", file);
                        removed++;
                    }
                } catch (IOException | RuntimeException e) {
                    logger.warn("could not remove the leftover training corpus file [" + file + "]", e);
                }
            }
        } catch (IOException e) {
            logger.warn("could not look for leftover training corpus files in [" + dir + "]", e);
        }
        return removed;
    }

    /** Whether the process named in {@code file}'s name is gone; false when the name names none. */
    private static boolean ownerGone(Path file) throws IOException {
        String name = file.getFileName().toString();
        int dash = name.indexOf('-', PREFIX.length());
        long pid;
        try {
            pid = dash < 0 ? -1 : Long.parseLong(name.substring(PREFIX.length(), dash));
        } catch (NumberFormatException e) {
            pid = -1;
        }
        if (pid <= 0) {
            return false;
        }
        Optional<ProcessHandle> process = ProcessHandle.of(pid);
        if (process.isEmpty() || process.get().isAlive() == false) {
            return true;
        }
        // also for this process's own pid: a file last written before it started is a previous
        // process's that had the same pid (a container's JVM often has)
        Optional<Instant> started = process.get().info().startInstant();
        return started.isPresent()
                && started.get().isAfter(Files.getLastModifiedTime(file).toInstant());
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
            throw new IllegalStateException(describe(index, documents, dim) + " in [" + dir + "], which has "
                    + new ByteSizeValue(usable) + " usable");
        }
    }

    /** The start of every refusal of a corpus for its size: what it holds and the file it needs. */
    static String describe(String index, long documents, int dim) {
        return "[corpus.index] [" + index + "] holds " + documents + " documents of " + dim
                + " dimensions: training spills them to a " + new ByteSizeValue(bytes(documents, dim)) + " file";
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
