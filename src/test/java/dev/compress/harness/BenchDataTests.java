package dev.compress.harness;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/** BenchData's adapters to the training code's exact search and nDCG, and its BEIR reader. */
public class BenchDataTests {

    @Rule
    public TemporaryFolder temp = new TemporaryFolder();

    @Test
    public void exactTopKIsTheBruteForceRankingForEveryQuery() {
        BenchData set = BenchData.synthetic(2_000, 37, 24, 7);
        int[][] top = set.exactTopK(10);
        assertEquals(37, top.length);
        for (int q = 0; q < top.length; q++) {
            float[] query = set.queries()[q];
            int[] found = top[q];
            assertEquals(10, found.length);
            assertEquals("distinct rows", 10, Arrays.stream(found).distinct().count());
            for (int i = 1; i < found.length; i++) {
                assertTrue(
                        "best first",
                        dot(query, set.corpus()[found[i - 1]]) >= dot(query, set.corpus()[found[i]]) - 1e-5);
            }
            double last = dot(query, set.corpus()[found[found.length - 1]]);
            for (int d = 0; d < set.corpus().length; d++) {
                int row = d;
                if (Arrays.stream(found).noneMatch(r -> r == row)) {
                    assertTrue("query " + q + " left out row " + d, dot(query, set.corpus()[d]) <= last + 1e-5);
                }
            }
        }
    }

    @Test
    public void exactTopKTakesOtherQueries() {
        BenchData set = BenchData.synthetic(500, 5, 16, 3);
        float[][] corpusRows = Arrays.copyOf(set.corpus(), 3);
        int[][] top = set.exactTopK(corpusRows, 1);
        assertArrayEquals(new int[][] {{0}, {1}, {2}}, top);
        assertEquals(0, set.exactTopK(new float[0][], 1).length);
    }

    @Test
    public void ndcgIsTrecEvalsWithGradedGains() {
        float[][] rows = {{1, 0}, {0, 1}, {1, 1}};
        BenchData set =
                new BenchData("tiny", rows, rows, List.of("a", "b", "c"), Map.of(0, Map.of("a", 2, "b", 1, "c", 0)));
        double ideal = 2 + 1 / log2(3);
        assertEquals(1.0, set.ndcg(0, new int[] {0, 1, 2}, 10), 1e-12);
        assertEquals((1 + 2 / log2(3)) / ideal, set.ndcg(0, new int[] {1, 0}, 10), 1e-12);
        assertEquals((0 + 2 / log2(3)) / ideal, set.ndcg(0, new int[] {2, 0}, 10), 1e-12);
        assertEquals(0.0, set.ndcg(1, new int[] {0}, 10), 0);
        int[][] rankings = {{0, 1}, {2}, {2}};
        assertEquals(1.0, set.meanNdcg(rankings, 10), 1e-12);
    }

    @Test
    public void recallIsOverlapWithTheExactTopK() {
        assertEquals(0.5, BenchData.recall(new int[] {1, 2, 3, 4}, new int[] {4, 9, 1, 8}), 0);
    }

    @Test
    public void beirJoinsIdsVectorsAndJudgments() throws IOException {
        Path dir = temp.newFolder("emb").toPath();
        write(dir, "corpus", List.of("d1", "d2", "d3"), new float[][] {{1, 0}, {0, 1}, {0.6f, 0.8f}});
        write(dir, "queries", List.of("q1", "q2", "q3"), new float[][] {{0, 1}, {1, 0}, {0.8f, 0.6f}});
        Path qrels = dir.resolve("test.tsv");
        Files.writeString(qrels, "query-id\tcorpus-id\tscore\nq2\td1\t1\nq1\td3\t2\nq1\td1\t1\nq3\td2\t0\n");
        BenchData set = BenchData.beir("tiny", dir, qrels);
        assertEquals(List.of("d1", "d2", "d3"), set.corpusIds());
        assertArrayEquals(new float[] {0.6f, 0.8f}, set.corpus()[2], 0);
        // q3 has no relevant document: left out, as the training code's evaluation sets do
        assertEquals(Map.of(1, Map.of("d1", 1), 0, Map.of("d3", 2, "d1", 1)), set.judgments());
        int[][] top = set.exactTopK(2);
        assertArrayEquals(new int[] {1, 2}, top[0]);
        assertEquals((2 / log2(3)) / (2 + 1 / log2(3)), set.ndcg(0, top[0], 10), 1e-12);

        Files.writeString(qrels, "query-id\tcorpus-id\tscore\nq1\td9\t1\n");
        assertThrows(IllegalStateException.class, () -> BenchData.beir("tiny", dir, qrels));
    }

    private static void write(Path dir, String name, List<String> ids, float[][] rows) throws IOException {
        ByteBuffer bytes = ByteBuffer.allocate(rows.length * rows[0].length * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (float[] row : rows) {
            for (float v : row) {
                bytes.putFloat(v);
            }
        }
        Files.write(dir.resolve(name + ".f32"), bytes.array());
        Files.write(dir.resolve(name + ".ids"), ids);
    }

    private static double dot(float[] a, float[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }

    private static double log2(double x) {
        return Math.log(x) / Math.log(2);
    }
}
