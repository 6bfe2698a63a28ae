package dev.compress.plugin.train;

import dev.compress.training.data.MappedVectors;

import org.opensearch.test.OpenSearchTestCase;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A training job's corpus file on a real file system: rows come back from the mapping bit for bit
 * and in order, closing deletes the file whether it was mapped or not, and a corpus the directory
 * cannot hold is refused before anything is written.
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
        float[] extremes = { -0.0f, Float.MIN_VALUE, -Float.MAX_VALUE, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY };
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
        mappedFile.append("a", new float[] { 1, 2 });
        MappedVectors mapped = mappedFile.map();
        mappedFile.close();
        assertFalse(Files.exists(mappedFile.path()));
        assertArrayEquals("the mapping outlives the file's name", new float[] { 1, 2 }, mapped.row(0), 0f);

        // a read that fails midway closes the file unmapped
        CorpusFile abandoned = CorpusFile.create(dir, 2);
        abandoned.append("a", new float[] { 1, 2 });
        abandoned.close();
        assertFalse(Files.exists(abandoned.path()));
        try (var left = Files.list(dir)) {
            assertEquals(List.of(), left.filter(f -> f.getFileName().toString().startsWith(CorpusFile.PREFIX)).toList());
        }
    }

    public void testRefusesACorpusTheDirectoryCannotHold() throws IOException {
        Path dir = createTempDir();
        CorpusFile.requireRoom(dir, "small", 10, 384);
        IllegalStateException e = expectThrows(IllegalStateException.class, () -> CorpusFile.requireRoom(dir, "huge", 1_000_000_000_000L, 384));
        assertTrue(e.getMessage(), e.getMessage().startsWith(
            "[corpus.index] [huge] holds 1000000000000 documents of 384 dimensions: training spills them to a 1.3pb file in [" + dir + "], which has "
        ));
        assertTrue(e.getMessage(), e.getMessage().endsWith(" usable"));
    }
}
