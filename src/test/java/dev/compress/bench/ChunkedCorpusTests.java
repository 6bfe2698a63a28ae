package dev.compress.bench;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import org.apache.lucene.util.VectorUtil;
import org.junit.Test;

/** Chunks around each document, and the ground truth that ranks a parent by its best chunk. */
public class ChunkedCorpusTests {

    @Test
    public void everyDocumentBecomesOneToMaxChunksOfUnitVectorsNearIt() {
        float[][] documents = {unit(1, 0, 0, 0), unit(0, 1, 0, 0), unit(0, 0, 1, 1)};
        ChunkedCorpus corpus = ChunkedCorpus.of(documents, 4, 0.1, 7);
        assertEquals(3, corpus.parents());
        assertEquals(corpus.chunks().length, corpus.firstChunk()[3]);
        for (int p = 0; p < 3; p++) {
            float[][] chunks = corpus.chunksOf(p);
            assertTrue(chunks.length >= 1 && chunks.length <= 4);
            for (float[] chunk : chunks) {
                assertEquals(1f, VectorUtil.dotProduct(chunk, chunk), 1e-5f);
                assertTrue(VectorUtil.dotProduct(chunk, documents[p]) > 0.9f);
            }
        }
        assertArrayEquals(
                corpus.chunks()[0], ChunkedCorpus.of(documents, 4, 0.1, 7).chunks()[0], 0f);
    }

    @Test
    public void aParentRanksByItsBestChunk() {
        // parent 0: one chunk at 0.6 to the query; parent 1: chunks at 0.1 and 0.9; parent 2: 0.5 and 0.55
        float[][] chunks = {
            unit(0.6f, 0.8f),
            unit(0.1f, (float) Math.sqrt(0.99)),
            unit(0.9f, (float) Math.sqrt(0.19)),
            unit(0.5f, (float) Math.sqrt(0.75)),
            unit(0.55f, (float) Math.sqrt(1 - 0.3025))
        };
        ChunkedCorpus corpus = new ChunkedCorpus(chunks, new int[] {0, 1, 3, 5});
        int[][] top = corpus.exactTopParents(new float[][] {{1, 0}}, 2);
        assertArrayEquals(new int[] {1, 0}, top[0]);
        assertArrayEquals(new int[] {1, 0, 2}, corpus.exactTopParents(new float[][] {{1, 0}}, 3)[0]);
    }

    @Test
    public void tiesGoToTheLowerParentAndOnlyTheBestKAreKept() {
        // parents 0 to 5, one chunk each; 1, 3 and 4 tie at the top, 0 and 5 tie below them
        float[][] chunks = {unit(0.5f, 1), unit(1, 0), unit(0, 1), unit(1, 0), unit(1, 0), unit(0.5f, 1)};
        ChunkedCorpus corpus = new ChunkedCorpus(chunks, new int[] {0, 1, 2, 3, 4, 5, 6});
        float[][] query = {{1, 0}};
        assertArrayEquals(new int[] {1, 3}, corpus.exactTopParents(query, 2)[0]);
        assertArrayEquals(new int[] {1, 3, 4, 0}, corpus.exactTopParents(query, 4)[0]);
        assertArrayEquals(new int[] {1, 3, 4, 0, 5, 2}, corpus.exactTopParents(query, 9)[0]);
    }

    private static float[] unit(float... v) {
        return VectorUtil.l2normalize(v.clone());
    }
}
