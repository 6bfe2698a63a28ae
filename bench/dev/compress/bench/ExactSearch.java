package dev.compress.bench;

import java.util.Arrays;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.stream.IntStream;
import org.apache.lucene.util.VectorUtil;

/** Brute-force dot-product search (the ground truth) and the quality metrics against it. */
final class ExactSearch {

  private ExactSearch() {}

  /** Indices of the top k corpus vectors by dot product, for every query (parallel). */
  static int[][] topK(float[][] corpus, float[][] queries, int k) {
    return IntStream.range(0, queries.length).parallel().mapToObj(q -> topK(corpus, queries[q], k)).toArray(int[][]::new);
  }

  static int[] topK(float[][] corpus, float[] query, int k) {
    // min-heap of the best k (score, index) pairs seen so far
    PriorityQueue<float[]> best = new PriorityQueue<>(k, (a, b) -> Float.compare(a[0], b[0]));
    for (int d = 0; d < corpus.length; d++) {
      float score = VectorUtil.dotProduct(query, corpus[d]);
      if (best.size() < k) {
        best.add(new float[] {score, d});
      } else if (score > best.peek()[0]) {
        best.poll();
        best.add(new float[] {score, d});
      }
    }
    int[] top = new int[best.size()];
    for (int i = top.length - 1; i >= 0; i--) {
      top[i] = (int) best.poll()[1];
    }
    return top;
  }

  /** |found ∩ truth| / |truth|. */
  static double recall(int[] truth, int[] found) {
    long hits = Arrays.stream(found).filter(d -> Arrays.stream(truth).anyMatch(t -> t == d)).count();
    return hits / (double) truth.length;
  }

  /** nDCG@k with linear gains (BEIR / pytrec_eval convention). */
  static double ndcg(int[] ranking, Map<Integer, Integer> grades, int k) {
    double dcg = 0;
    for (int i = 0; i < Math.min(k, ranking.length); i++) {
      dcg += grades.getOrDefault(ranking[i], 0) / log2(i + 2);
    }
    int[] ideal = grades.values().stream().sorted((a, b) -> b - a).mapToInt(Integer::intValue).toArray();
    double idcg = 0;
    for (int i = 0; i < Math.min(k, ideal.length); i++) {
      idcg += ideal[i] / log2(i + 2);
    }
    return idcg == 0 ? 0 : dcg / idcg;
  }

  private static double log2(double x) {
    return Math.log(x) / Math.log(2);
  }
}
