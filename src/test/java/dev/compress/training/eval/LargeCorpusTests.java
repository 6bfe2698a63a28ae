package dev.compress.training.eval;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import dev.compress.testing.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.Test;

/**
 * Memory stays bounded for a corpus larger than the heap: a child JVM (same java, same class path) with a
 * 96 MB heap mines hard negatives and evaluates, frozen and through a model, a 150k x 384 corpus file of
 * 230 MB, which it could not hold, and gets the rankings the corpus was built to have ({@link PlantedCorpus}).
 */
public class LargeCorpusTests {

    private static final int ROWS = 150_000;
    private static final String HEAP = "96m";

    @Test
    public void minesAndEvaluatesACorpusLargerThanTheHeap() throws Exception {
        Path dir = Files.createTempDirectory("large-corpus");
        try {
            PlantedCorpus planted = new PlantedCorpus(ROWS);
            planted.write(dir);
            long corpusBytes = Files.size(dir.resolve("corpus.f32"));
            assertEquals(4L * ROWS * PlantedCorpus.DIM, corpusBytes);

            long started = System.nanoTime();
            Map<String, String> out =
                    ChildJvm.run(LargeCorpusProbe.class, List.of("-Xmx" + HEAP, "-XX:+UseSerialGC"), dir.toString());
            double seconds = (System.nanoTime() - started) / 1e9;
            long maxHeap = Long.parseLong(out.get("maxHeap"));
            long peakHeap = Long.parseLong(out.get("peakHeap"));
            System.out.printf(
                    Locale.ROOT,
                    "corpus %d MiB, child heap max %d MiB, peak used %d MiB, %.1f s%n",
                    corpusBytes >> 20,
                    maxHeap >> 20,
                    peakHeap >> 20,
                    seconds);
            assertTrue(
                    "the corpus (" + corpusBytes + " bytes) must not fit the child's heap (" + maxHeap + ")",
                    corpusBytes > maxHeap);

            for (int q = 0; q < PlantedCorpus.QUERIES - 1; q++) {
                assertEquals("query " + q, Arrays.toString(planted.hardNegatives(q)), out.get("negatives.q" + q));
            }
            assertEquals("the encoded corpus stays a view", "false", out.get("encodedCorpusOnHeap"));
            for (String method : List.of("frozen", "first64")) {
                for (Encoding e : Encoding.values()) {
                    String key = "ndcg." + method + "." + e.label();
                    assertArrayEquals(key, planted.ndcg(e), perQuery(out.get(key)), 0);
                }
            }
        } finally {
            try (var files = Files.list(dir)) {
                for (Path f : files.toList()) {
                    Files.delete(f);
                }
            }
            Files.delete(dir);
        }
    }

    private static double[] perQuery(String csv) {
        assertTrue("missing result", csv != null);
        return Arrays.stream(csv.split(",")).mapToDouble(Double::parseDouble).toArray();
    }
}
