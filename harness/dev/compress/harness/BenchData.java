package dev.compress.harness;

import dev.compress.training.data.Qrels;
import dev.compress.training.data.VectorFiles;
import dev.compress.training.data.VectorRows;
import dev.compress.training.data.VectorSet;
import dev.compress.training.eval.ExactSearch;
import dev.compress.training.eval.RetrievalMetrics;
import java.io.IOException;
import java.nio.file.Path;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.IntStream;
import org.apache.lucene.util.VectorUtil;

/**
 * A benchmark data set: corpus and query vectors (unit length) as rows, and for real data the graded
 * judgments of the evaluated queries. The ground truth and the quality figures come from the training
 * code, as for the trainers' evaluation and the demo: exact search is {@link ExactSearch} and nDCG is
 * {@link RetrievalMetrics} (trec_eval's, graded gains); this class only adapts rows and row numbers
 * to them.
 *
 * @param corpusIds the document id of each corpus row (for synthetic data, the row number)
 * @param judgments query row -> (document id -> grade), for each query with at least one relevant
 *     (grade > 0) document; empty for synthetic data
 */
public record BenchData(
        String name,
        float[][] corpus,
        float[][] queries,
        List<String> corpusIds,
        Map<Integer, Map<String, Integer>> judgments) {

    /** BEIR embeddings ({@code corpus.f32}, {@code queries.f32}, {@code .ids}) and a qrels TSV. */
    public static BenchData beir(String name, Path embeddings, Path qrelsFile) throws IOException {
        VectorSet corpus = VectorFiles.read(embeddings, "corpus");
        VectorSet queries = VectorFiles.read(embeddings, "queries");
        Qrels qrels = Qrels.readTsv(qrelsFile);
        Map<Integer, Map<String, Integer>> judgments = new LinkedHashMap<>();
        for (String query : qrels.queryIds()) {
            int row = queries.rowOf(query);
            if (row < 0) {
                throw new IllegalStateException(
                        "judged query [" + query + "] of " + qrelsFile + " has no vector in " + embeddings);
            }
            for (String doc : qrels.judgments(query).keySet()) {
                if (corpus.rowOf(doc) < 0) {
                    throw new IllegalStateException(
                            "judged document [" + doc + "] of " + qrelsFile + " has no vector in " + embeddings);
                }
            }
            if (qrels.relevant(query).isEmpty() == false) {
                judgments.put(row, qrels.judgments(query));
            }
        }
        return new BenchData(name, rows(corpus), rows(queries), corpus.ids(), judgments);
    }

    /**
     * Clustered unit vectors with a low intrinsic dimension, like real embeddings: a cluster centre
     * plus a 32-dimensional latent Gaussian mapped into {@code dims} dimensions, plus small
     * isotropic noise.
     */
    public static BenchData synthetic(int docs, int queries, int dims, long seed) {
        Random random = new Random(seed);
        int clusters = 200, latent = 32;
        float[][] centres = gaussian(random, clusters, dims, 1f);
        float[][] mixing = gaussian(random, dims, latent, 0.5f);
        return new BenchData(
                "synthetic " + docs + " x " + dims,
                clustered(random, docs, centres, mixing),
                clustered(random, queries, centres, mixing),
                rowNumbers(docs),
                Map.of());
    }

    private static float[][] clustered(Random random, int n, float[][] centres, float[][] mixing) {
        int dims = mixing.length, latent = mixing[0].length;
        float[][] out = new float[n][dims];
        float[] z = new float[latent];
        for (float[] v : out) {
            float[] centre = centres[random.nextInt(centres.length)];
            for (int j = 0; j < latent; j++) {
                z[j] = (float) random.nextGaussian();
            }
            for (int i = 0; i < dims; i++) {
                v[i] = centre[i] + VectorUtil.dotProduct(mixing[i], z) + 0.2f * (float) random.nextGaussian();
            }
            VectorUtil.l2normalize(v);
        }
        return out;
    }

    private static float[][] gaussian(Random random, int rows, int cols, float sigma) {
        float[][] m = new float[rows][cols];
        for (float[] row : m) {
            for (int j = 0; j < cols; j++) {
                row[j] = sigma * (float) random.nextGaussian();
            }
        }
        return m;
    }

    /** Each query's {@code k} corpus rows of highest dot product, best first: the ground truth. */
    public int[][] exactTopK(int k) {
        return exactTopK(queries, k);
    }

    /**
     * The same for other query vectors (masked ones, say) against this corpus. The queries are split
     * into one part per core, each part searched by {@link ExactSearch} in its own scan of the corpus.
     */
    public int[][] exactTopK(float[][] queryRows, int k) {
        if (queryRows.length == 0) {
            return new int[0][];
        }
        VectorRows rows = new CorpusRows();
        int parts = Math.min(queryRows.length, Runtime.getRuntime().availableProcessors());
        int per = (queryRows.length + parts - 1) / parts;
        return IntStream.range(0, parts)
                .parallel()
                .mapToObj(p -> {
                    float[][] part = Arrays.copyOfRange(
                            queryRows, Math.min(queryRows.length, p * per), Math.min(queryRows.length, (p + 1) * per));
                    return part.length == 0
                            ? new int[0][]
                            : ExactSearch.search(VectorSet.ofRows(rowNumbers(part.length), part), rows, k);
                })
                .flatMap(Arrays::stream)
                .toArray(int[][]::new);
    }

    /** nDCG@k of a ranking (corpus rows, best first) for judged query row {@code query}, as {@link RetrievalMetrics} computes it. */
    public double ndcg(int query, int[] ranking, int k) {
        List<String> ranked = new ArrayList<>(ranking.length);
        for (int row : ranking) {
            ranked.add(corpusIds.get(row));
        }
        return RetrievalMetrics.ndcg(ranked, judgments.getOrDefault(query, Map.of()), k);
    }

    /** Mean nDCG@k over the judged queries; {@code rankings} holds one ranking per query row. */
    public double meanNdcg(int[][] rankings, int k) {
        return judgments.keySet().stream()
                .mapToDouble(q -> ndcg(q, rankings[q], k))
                .average()
                .orElse(0);
    }

    /**
     * Recall against the exact top k, the approximate search's own measure: |found ∩ truth| / |truth|.
     * Not the judged recall of {@link RetrievalMetrics#recall}, which counts relevant documents.
     */
    public static double recall(int[] truth, int[] found) {
        long hits = Arrays.stream(found)
                .filter(d -> Arrays.stream(truth).anyMatch(t -> t == d))
                .count();
        return hits / (double) truth.length;
    }

    private static float[][] rows(VectorSet set) {
        float[][] rows = new float[set.size()][];
        for (int i = 0; i < rows.length; i++) {
            rows[i] = set.row(i);
        }
        return rows;
    }

    /** Row numbers as ids, "0", "1", ...: synthetic rows have no ids of their own. */
    private static List<String> rowNumbers(int n) {
        return new AbstractList<>() {
            @Override
            public String get(int index) {
                return Integer.toString(index);
            }

            @Override
            public int size() {
                return n;
            }
        };
    }

    /** The corpus as {@link VectorRows}, for {@link ExactSearch}: a view, the rows are copied a block at a time. */
    private final class CorpusRows implements VectorRows {

        @Override
        public int size() {
            return corpus.length;
        }

        @Override
        public int dim() {
            return corpus[0].length;
        }

        @Override
        public List<String> ids() {
            return corpusIds;
        }

        @Override
        public int rowOf(String id) {
            return corpusIds.indexOf(id);
        }

        @Override
        public void readBlock(int start, int count, float[] into, int offset) {
            int dim = dim();
            for (int i = 0; i < count; i++) {
                System.arraycopy(corpus[start + i], 0, into, offset + i * dim, dim);
            }
        }
    }
}
