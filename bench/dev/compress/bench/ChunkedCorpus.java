package dev.compress.bench;

import java.util.Arrays;
import java.util.Comparator;
import java.util.PriorityQueue;
import java.util.Random;
import org.apache.lucene.util.VectorUtil;

/**
 * Documents split into chunks, one vector per chunk, as a nested field holds them: each document
 * of a corpus becomes a parent with 1 to {@code maxChunks} chunks, each chunk the document's vector
 * plus isotropic Gaussian noise of length about {@code noise}, normalised. A document's chunks are
 * then near each other and near the document (cosine about {@code 1 / sqrt(1 + noise^2)}), as the
 * chunks of one text are, and a query's nearest parent is the one holding its nearest chunk.
 *
 * @param chunks the chunk vectors, every parent's chunks together, parents in order
 * @param firstChunk parent {@code p}'s chunks are rows {@code firstChunk[p]} to {@code firstChunk[p + 1] - 1}
 */
record ChunkedCorpus(float[][] chunks, int[] firstChunk) {

    static ChunkedCorpus of(float[][] documents, int maxChunks, double noise, long seed) {
        Random random = new Random(seed);
        int dims = documents[0].length;
        double sigma = noise / Math.sqrt(dims);
        int[] first = new int[documents.length + 1];
        float[][][] perDocument = new float[documents.length][][];
        for (int p = 0; p < documents.length; p++) {
            perDocument[p] = new float[1 + random.nextInt(maxChunks)][dims];
            for (float[] chunk : perDocument[p]) {
                for (int i = 0; i < dims; i++) {
                    chunk[i] = documents[p][i] + (float) (sigma * random.nextGaussian());
                }
                VectorUtil.l2normalize(chunk);
            }
            first[p + 1] = first[p] + perDocument[p].length;
        }
        return new ChunkedCorpus(
                Arrays.stream(perDocument).flatMap(Arrays::stream).toArray(float[][]::new), first);
    }

    int parents() {
        return firstChunk.length - 1;
    }

    /** Parent {@code p}'s chunks. */
    float[][] chunksOf(int p) {
        return Arrays.copyOfRange(chunks, firstChunk[p], firstChunk[p + 1]);
    }

    /**
     * Each query's {@code k} parents of highest best-chunk dot product, best first (ties to the lower
     * parent): the ground truth of a nested search that ranks a parent by its best chunk.
     */
    int[][] exactTopParents(float[][] queries, int k) {
        int[][] top = new int[queries.length][];
        for (int q = 0; q < queries.length; q++) {
            float[] best = new float[parents()];
            for (int p = 0; p < best.length; p++) {
                best[p] = Float.NEGATIVE_INFINITY;
                for (int c = firstChunk[p]; c < firstChunk[p + 1]; c++) {
                    best[p] = Math.max(best[p], VectorUtil.dotProduct(queries[q], chunks[c]));
                }
            }
            Comparator<Integer> better =
                    (a, b) -> best[a] != best[b] ? Float.compare(best[b], best[a]) : Integer.compare(a, b);
            // the k best so far, worst at the head, so a query costs O(parents log k), not a sort of every parent
            PriorityQueue<Integer> kept = new PriorityQueue<>(k + 1, better.reversed());
            for (int p = 0; p < best.length; p++) {
                kept.add(p);
                if (kept.size() > k) {
                    kept.poll();
                }
            }
            top[q] = kept.stream().sorted(better).mapToInt(Integer::intValue).toArray();
        }
        return top;
    }
}
