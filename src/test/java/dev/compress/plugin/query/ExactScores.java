package dev.compress.plugin.query;

import java.util.Comparator;
import java.util.List;
import java.util.function.IntPredicate;
import java.util.stream.IntStream;

/**
 * Brute-force expectations for {@code compressed_knn}: each similarity's score computed here by hand
 * (Lucene's mappings: {@code (1 + cos) / 2}, {@code 1 / (1 + d^2)}, and for the inner product
 * {@code 1 / (1 - ip)} below zero, {@code ip + 1} above), and the documents ranked by it.
 */
final class ExactScores {

    private ExactScores() {}

    static double dot(float[] a, float[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += (double) a[i] * b[i];
        }
        return s;
    }

    static double squaredDistance(float[] a, float[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            double d = (double) a[i] - b[i];
            s += d * d;
        }
        return s;
    }

    /** The score of {@code similarity} (its mapping's JSON name) between query {@code q} and document {@code d}. */
    static float score(String similarity, float[] q, float[] d) {
        return (float)
                switch (similarity) {
                    case "l2" -> 1 / (1 + squaredDistance(q, d));
                    case "inner_product" -> {
                        double ip = dot(q, d);
                        yield ip < 0 ? 1 / (1 - ip) : ip + 1;
                    }
                    case "cosine" -> Math.max(0, (1 + dot(q, d) / Math.sqrt(dot(q, q) * dot(d, d))) / 2);
                    case "dot_product" -> Math.max(0, (1 + dot(q, d)) / 2);
                    default -> throw new IllegalArgumentException(similarity);
                };
    }

    /** Documents passing {@code accept}, best first, with their scores. */
    static List<Hit> ranked(String similarity, float[][] docs, float[] q, IntPredicate accept) {
        return IntStream.range(0, docs.length)
                .filter(accept)
                .mapToObj(i -> new Hit(Integer.toString(i), score(similarity, q, docs[i])))
                .sorted(Comparator.comparingDouble((Hit h) -> -h.score()))
                .toList();
    }

    /** The best {@code k} of {@link #ranked}. */
    static List<Hit> top(String similarity, float[][] docs, float[] q, int k, IntPredicate accept) {
        List<Hit> all = ranked(similarity, docs, q, accept);
        return all.subList(0, Math.min(k, all.size()));
    }

    /** The vector {@code v} scaled by {@code length}. */
    static float[] scaled(float[] v, float length) {
        float[] out = new float[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = v[i] * length;
        }
        return out;
    }
}
