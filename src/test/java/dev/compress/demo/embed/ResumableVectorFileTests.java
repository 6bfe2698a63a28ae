package dev.compress.demo.embed;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import dev.compress.training.data.VectorFiles;
import dev.compress.training.data.VectorSet;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

public class ResumableVectorFileTests {

    private static final List<String> IDS = List.of("a", "b", "c");

    @Rule
    public TemporaryFolder temp = new TemporaryFolder();

    @Test
    public void writesTheSharedLayoutReadableByVectorFiles() throws IOException {
        Path dir = temp.getRoot().toPath();
        try (ResumableVectorFile file = ResumableVectorFile.open(dir, "corpus", IDS, 2)) {
            file.append(new float[][] {{1, 2}, {3, 4}});
            file.append(new float[][] {{5, 6}});
            file.complete();
        }
        VectorSet read = VectorFiles.read(dir, "corpus");
        assertEquals(IDS, read.ids());
        assertArrayEquals(new float[] {1, 2, 3, 4, 5, 6}, read.data(), 0f);
        assertTrue(ResumableVectorFile.isComplete(dir, "corpus", IDS, 2));
        assertFalse(ResumableVectorFile.isComplete(dir, "corpus", List.of("a", "b", "x"), 2));
        assertFalse(Files.exists(dir.resolve("corpus.f32.partial")));
    }

    @Test
    public void resumesAfterTheLastRowWithAnIdAndDropsATornRow() throws IOException {
        Path dir = temp.getRoot().toPath();
        try (ResumableVectorFile file = ResumableVectorFile.open(dir, "corpus", IDS, 2)) {
            file.append(new float[][] {{1, 2}});
        }
        // a crash after the floats of a second row were written but before its id
        Files.write(dir.resolve("corpus.f32.partial"), new byte[] {9, 9, 9, 9, 9, 9, 9, 9}, StandardOpenOption.APPEND);
        try (ResumableVectorFile file = ResumableVectorFile.open(dir, "corpus", IDS, 2)) {
            assertEquals(1, file.rows());
            file.append(new float[][] {{3, 4}, {5, 6}});
            file.complete();
        }
        assertArrayEquals(
                new float[] {1, 2, 3, 4, 5, 6}, VectorFiles.read(dir, "corpus").data(), 0f);
    }

    @Test
    public void startsOverWhenThePartialIdsAreNotThisDataSets() throws IOException {
        Path dir = temp.getRoot().toPath();
        try (ResumableVectorFile file = ResumableVectorFile.open(dir, "corpus", List.of("x", "y"), 2)) {
            file.append(new float[][] {{1, 2}});
        }
        try (ResumableVectorFile file = ResumableVectorFile.open(dir, "corpus", IDS, 2)) {
            assertEquals(0, file.rows());
        }
    }

    @Test
    public void refusesToCompleteWithRowsMissing() throws IOException {
        try (ResumableVectorFile file = ResumableVectorFile.open(temp.getRoot().toPath(), "q", IDS, 2)) {
            file.append(new float[][] {{1, 2}});
            assertThrows(IllegalStateException.class, file::complete);
            assertThrows(IllegalArgumentException.class, () -> file.append(new float[][] {{1, 2, 3}}));
        }
    }
}
