package dev.compress.plugin.train;

import dev.compress.training.data.MappedVectors;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.opensearch.test.OpenSearchTestCase;

/**
 * A training job's corpus file on a real file system: rows come back from the mapping bit for bit
 * and in order, closing deletes the file whether it was mapped or not, a corpus the directory
 * cannot hold is refused before anything is written, and a starting node removes only the files of
 * processes that are gone.
 */
public class CorpusFileTests extends OpenSearchTestCase {

    /** 3,000 rows of 97 floats (1.1 MB) fill the 1 MiB write buffer mid-row; extreme values must survive too. */
    public void testRowsMapBackBitIdenticalAndInOrder() throws IOException {
        int dim = 97;
        float[][] rows = new float[3000][dim];
        for (float[] row : rows) {
            for (int j = 0; j < dim; j++) {
                float v;
                do {
                    v = Float.intBitsToFloat(random().nextInt());
                } while (Float.isNaN(v)); // a NaN's payload is not the file's to keep
                row[j] = v;
            }
        }
        float[] extremes = {-0.0f, Float.MIN_VALUE, -Float.MAX_VALUE, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY};
        System.arraycopy(extremes, 0, rows[0], 0, extremes.length);
        List<String> ids = new ArrayList<>();
        Path dir = createTempDir();
        try (CorpusFile file = CorpusFile.create(dir, dim)) {
            assertEquals(dir, file.path().getParent());
            assertTrue(file.path().getFileName().toString().startsWith(CorpusFile.PREFIX));
            for (int r = 0; r < rows.length; r++) {
                ids.add("doc-" + (rows.length - r)); // not sorted: the file keeps the order it was given
                file.append(ids.get(r), rows[r]);
            }
            MappedVectors mapped = file.map();
            assertEquals(CorpusFile.bytes(rows.length, dim), Files.size(file.path()));
            assertEquals(ids, mapped.ids());
            assertEquals(dim, mapped.dim());
            for (int r = 0; r < rows.length; r++) {
                assertArrayEquals("row " + r, bits(rows[r]), bits(mapped.row(r)));
            }
        }
    }

    private static int[] bits(float[] row) {
        int[] bits = new int[row.length];
        for (int j = 0; j < row.length; j++) {
            bits[j] = Float.floatToRawIntBits(row[j]);
        }
        return bits;
    }

    public void testCloseDeletesTheFileMappedOrNot() throws IOException {
        Path dir = createTempDir();
        CorpusFile mappedFile = CorpusFile.create(dir, 2);
        mappedFile.append("a", new float[] {1, 2});
        MappedVectors mapped = mappedFile.map();
        mappedFile.close();
        assertFalse(Files.exists(mappedFile.path()));
        assertArrayEquals("the mapping outlives the file's name", new float[] {1, 2}, mapped.row(0), 0f);

        // a read that fails midway closes the file unmapped
        CorpusFile abandoned = CorpusFile.create(dir, 2);
        abandoned.append("a", new float[] {1, 2});
        abandoned.close();
        assertFalse(Files.exists(abandoned.path()));
        try (var left = Files.list(dir)) {
            assertEquals(
                    List.of(),
                    left.filter(f -> f.getFileName().toString().startsWith(CorpusFile.PREFIX))
                            .toList());
        }
    }

    public void testRefusesACorpusTheDirectoryCannotHold() throws IOException {
        Path dir = createTempDir();
        CorpusFile.requireRoom(dir, "small", 10, 384);
        IllegalStateException e = expectThrows(
                IllegalStateException.class, () -> CorpusFile.requireRoom(dir, "huge", 1_000_000_000_000L, 384));
        assertTrue(
                e.getMessage(),
                e.getMessage()
                        .startsWith(
                                "[corpus.index] [huge] holds 1000000000000 documents of 384 dimensions: training spills them to a 1.3pb file in ["
                                        + dir + "], which has "));
        assertTrue(e.getMessage(), e.getMessage().endsWith(" usable"));
    }

    /**
     * A crashed JVM's file goes, also one of a JVM that had this JVM's pid before it; this JVM's (a
     * job of another node of it may be running), a running process's, and files this code did not
     * name stay. Pid 1 stands for a live process; a file "written" before it started is one whose
     * pid was reused.
     */
    public void testStartupRemovesOnlyFilesOfProcessesThatAreGone() throws IOException {
        Path dir = createTempDir();
        long self = ProcessHandle.current().pid();
        long gone = deadPid();
        Path crashed = Files.createFile(dir.resolve(CorpusFile.PREFIX + gone + "-8123.f32"));
        Path reused = Files.createFile(dir.resolve(CorpusFile.PREFIX + "1-77.f32"));
        Files.setLastModifiedTime(reused, FileTime.from(Instant.parse("1971-01-01T00:00:00Z")));
        Path running = Files.createFile(dir.resolve(CorpusFile.PREFIX + "1-78.f32"));
        Path ours = Files.createFile(dir.resolve(CorpusFile.PREFIX + self + "-98.f32"));
        Path oursBefore = Files.createFile(dir.resolve(CorpusFile.PREFIX + self + "-99.f32"));
        Files.setLastModifiedTime(oursBefore, FileTime.from(Instant.parse("1971-01-01T00:00:00Z")));
        Path legacy = Files.createFile(dir.resolve(CorpusFile.PREFIX + "4409811872512235.f32"));
        Path otherSuffix = Files.createFile(dir.resolve(CorpusFile.PREFIX + gone + "-1.tmp"));
        Path otherPrefix = Files.createFile(dir.resolve("corpus-" + gone + "-1.f32"));
        Path garbled = Files.createFile(dir.resolve(CorpusFile.PREFIX + "x-1.f32"));
        Path directory = Files.createDirectory(dir.resolve(CorpusFile.PREFIX + gone + "-2.f32"));
        try (CorpusFile live = CorpusFile.create(dir, 4)) {
            live.append("a", new float[] {1, 2, 3, 4});
            assertTrue(
                    live.path().getFileName().toString(),
                    live.path().getFileName().toString().startsWith(CorpusFile.PREFIX + self + "-"));

            assertEquals(3, CorpusFile.removeLeftovers(dir));
            Set<Path> left;
            try (var listed = Files.list(dir)) {
                // the test framework's file system may add files named extra* to any directory
                left = listed.filter(p -> p.getFileName().toString().startsWith("extra") == false)
                        .collect(Collectors.toSet());
            }
            assertEquals(
                    Set.of(running, ours, legacy, otherSuffix, otherPrefix, garbled, directory, live.path()), left);
            assertFalse(Files.exists(crashed));
            assertFalse(Files.exists(reused));
            assertFalse(Files.exists(oursBefore));
            assertEquals(
                    "a job of this JVM still maps its file",
                    List.of("a"),
                    live.map().ids());
        }
        assertEquals(0, CorpusFile.removeLeftovers(dir.resolve("missing")));
    }

    /** The id of a process that has exited (a child, waited for, whose id the system has not handed out again). */
    private static long deadPid() throws IOException {
        try {
            Process child = new ProcessBuilder("true").start();
            child.waitFor();
            long pid = child.pid();
            assumeTrue(
                    "the id of the exited child is free", ProcessHandle.of(pid).isEmpty());
            return pid;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
