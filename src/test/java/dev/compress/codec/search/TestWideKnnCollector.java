package dev.compress.codec.search;

import java.util.Arrays;
import java.util.Comparator;
import java.util.Random;
import java.util.stream.Collectors;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.TopKnnCollector;
import org.apache.lucene.tests.util.LuceneTestCase;

/**
 * The wide collector steers a walk exactly like Lucene's top-k collector of the beam's size, and
 * returns the best {@code keep} of everything collected.
 */
public class TestWideKnnCollector extends LuceneTestCase {

    public void testSameBeamAsTopKnnCollectorAndKeepsTheBestOfAllCollected() {
        Random random = random();
        for (int round = 0; round < 50; round++) {
            int k = 1 + random.nextInt(20);
            int keep = k + random.nextInt(3 * k);
            WideKnnCollector wide = new WideKnnCollector(k, keep, Long.MAX_VALUE, null);
            TopKnnCollector top = new TopKnnCollector(k, Integer.MAX_VALUE);
            int collected = random.nextInt(10 * keep);
            ScoreDoc[] all = new ScoreDoc[collected];
            for (int doc = 0; doc < collected; doc++) {
                float score = random.nextFloat();
                all[doc] = new ScoreDoc(doc, score);
                assertEquals(top.minCompetitiveSimilarity(), wide.minCompetitiveSimilarity(), 0f);
                assertEquals(top.collect(doc, score), wide.collect(doc, score));
            }
            assertEquals(top.minCompetitiveSimilarity(), wide.minCompetitiveSimilarity(), 0f);
            Arrays.sort(all, Comparator.comparingDouble((ScoreDoc hit) -> -hit.score));
            ScoreDoc[] expected = Arrays.copyOf(all, Math.min(keep, collected));
            assertEquals(expected.length, wide.numCollected());
            TopDocs kept = wide.topDocs();
            assertEquals(expected.length, kept.scoreDocs.length);
            for (int i = 0; i < expected.length; i++) {
                assertEquals(expected[i].score, kept.scoreDocs[i].score, 0f);
            }
            assertEquals(
                    Arrays.stream(expected).map(h -> h.doc).collect(Collectors.toSet()),
                    Arrays.stream(kept.scoreDocs).map(h -> h.doc).collect(Collectors.toSet()));
        }
    }

    public void testKeepBelowBeamRejected() {
        expectThrows(IllegalArgumentException.class, () -> new WideKnnCollector(10, 9, Long.MAX_VALUE, null));
    }
}
