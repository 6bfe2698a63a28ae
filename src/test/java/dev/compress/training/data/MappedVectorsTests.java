package dev.compress.training.data;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;

/** The memory-mapped reader against the in-heap one: reads across chunk ends, ids, size checks, lazy transforms. */
public class MappedVectorsTests {

    private Path dir;

    @Before
    public void createDir() throws IOException {
        dir = Files.createTempDirectory("mapped-vectors");
    }

    @After
    public void deleteDir() throws IOException {
        try (var files = Files.list(dir)) {
            for (Path f : files.toList()) {
                Files.delete(f);
            }
        }
        Files.delete(dir);
    }

    /** Row r, column j holds r * 10 + j, so every value says where it came from. */
    private static float[] values(int rows, int dim) {
        float[] v = new float[rows * dim];
        for (int r = 0; r < rows; r++) {
            for (int j = 0; j < dim; j++) {
                v[r * dim + j] = r * 10 + j;
            }
        }
        return v;
    }

    private static List<String> ids(int rows) {
        return IntStream.range(0, rows).mapToObj(i -> "doc" + i).toList();
    }

    private Path write(String name, float[] values, List<String> ids) throws IOException {
        ByteBuffer bytes = ByteBuffer.allocate(4 * values.length).order(ByteOrder.LITTLE_ENDIAN);
        bytes.asFloatBuffer().put(values);
        Path f32 = dir.resolve(name + ".f32");
        Files.write(f32, bytes.array());
        Files.write(dir.resolve(name + ".ids"), ids);
        return f32;
    }

    @Test
    public void readsAcrossChunkEnds() throws IOException {
        int rows = 7;
        int dim = 3;
        float[] all = values(rows, dim);
        Path f32 = write("corpus", all, ids(rows));
        // 28 bytes hold 2 rows of 12; 5 bytes hold none, which still maps one row per chunk
        for (long chunkBytes : new long[] {28, 5, 24, 1 << 20}) {
            MappedVectors mapped = new MappedVectors(f32, ids(rows), dim, chunkBytes);
            for (int start = 0; start < rows; start++) {
                for (int count = 0; start + count <= rows; count++) {
                    float[] into = new float[count * dim + 2];
                    into[0] = -1;
                    mapped.readBlock(start, count, into, 1);
                    float[] expected = new float[count * dim + 2];
                    expected[0] = -1;
                    System.arraycopy(all, start * dim, expected, 1, count * dim);
                    assertArrayEquals(
                            "chunk " + chunkBytes + " rows [" + start + ", +" + count + ")", expected, into, 0f);
                }
            }
            assertArrayEquals(new float[] {60, 61, 62}, mapped.row(6), 0f);
        }
    }

    @Test
    public void matchesTheInHeapReader() throws IOException {
        int rows = 2 * VectorRows.BLOCK_ROWS + 5;
        write("corpus", values(rows, 4), ids(rows));
        VectorSet heap = VectorFiles.read(dir, "corpus");
        MappedVectors mapped = VectorFiles.map(dir, "corpus");
        assertEquals(heap.size(), mapped.size());
        assertEquals(4, mapped.dim());
        assertEquals(heap.ids(), mapped.ids());
        assertEquals(1500, mapped.rowOf("doc1500"));
        assertEquals(-1, mapped.rowOf("absent"));
        List<Integer> starts = new ArrayList<>();
        mapped.forEachBlock((start, count, block) -> {
            starts.add(start);
            for (int i = 0; i < count; i++) {
                assertEquals(heap.data()[(start + i) * 4 + 3], block[i * 4 + 3], 0f);
            }
        });
        assertEquals(List.of(0, VectorRows.BLOCK_ROWS, 2 * VectorRows.BLOCK_ROWS), starts);
        assertThrows(IndexOutOfBoundsException.class, () -> mapped.readBlock(rows - 1, 2, new float[8], 0));
    }

    @Test
    public void rejectsAFileThatIsNotWholeRows() throws IOException {
        Path f32 = write("corpus", values(3, 2), ids(3));
        Files.write(f32, new byte[] {0, 0, 0, 0, 1, 2}, java.nio.file.StandardOpenOption.APPEND);
        IOException e = assertThrows(IOException.class, () -> VectorFiles.map(dir, "corpus"));
        assertTrue(e.getMessage(), e.getMessage().contains("30 bytes, not a whole number of float32 rows for 3 ids"));
        IOException wrongDim = assertThrows(IOException.class, () -> new MappedVectors(f32, ids(3), 2));
        assertTrue(wrongDim.getMessage(), wrongDim.getMessage().contains("expected 3 rows x 2 float32"));
    }

    /**
     * A transform of a mapped source is a view that calls the function once per block it reads, with the
     * same batches a {@link VectorSet} uses to transform itself at once, so both give the same rows.
     */
    @Test
    public void transformsLazilyInTheSameBatchesAsTheHeap() throws IOException {
        int rows = 2 * VectorRows.BLOCK_ROWS + 5;
        write("corpus", values(rows, 4), ids(rows));
        List<Integer> heapBatches = new ArrayList<>();
        List<Integer> viewBatches = new ArrayList<>();
        VectorSet eager = VectorFiles.read(dir, "corpus").transform(2, sumAndCount(heapBatches));
        VectorRows view = VectorFiles.map(dir, "corpus").transform(2, sumAndCount(viewBatches));
        assertFalse("a mapped source is never transformed whole", view instanceof VectorSet);
        assertTrue(viewBatches.isEmpty());
        List<Integer> starts = new ArrayList<>();
        view.forEachBlock((start, count, block) -> {
            starts.add(start);
            float[] expected = new float[count * 2];
            eager.readBlock(start, count, expected, 0);
            assertArrayEquals(expected, java.util.Arrays.copyOf(block, count * 2), 0f);
        });
        assertEquals(heapBatches, viewBatches);
        assertEquals(List.of(VectorRows.BLOCK_ROWS, VectorRows.BLOCK_ROWS, 5), viewBatches);
        assertArrayEquals(new float[] {4 * 1234 * 10 + 6, 1234}, view.row(1234), 0f);
        assertEquals("doc7", view.id(7));
    }

    /** Row -> (sum of its values, its row number), recording the size of each batch. */
    private static VectorRows.BlockFunction sumAndCount(List<Integer> batches) {
        return (in, count) -> {
            batches.add(count);
            float[] out = new float[count * 2];
            for (int i = 0; i < count; i++) {
                for (int j = 0; j < 4; j++) {
                    out[i * 2] += in[i * 4 + j];
                }
                out[i * 2 + 1] = in[i * 4] / 10;
            }
            return out;
        };
    }
}
