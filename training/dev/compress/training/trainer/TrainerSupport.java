package dev.compress.training.trainer;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import ai.djl.training.optimizer.Optimizer;
import ai.djl.training.tracker.Tracker;
import dev.compress.training.data.EvalSet;
import dev.compress.training.data.VectorRows;
import dev.compress.training.data.VectorSet;
import dev.compress.training.eval.Encoding;
import dev.compress.training.eval.RetrievalEvaluator;
import dev.compress.training.eval.Scores;
import dev.compress.training.inference.DjlLayers;
import dev.compress.training.sampling.PositivePair;
import dev.compress.training.sampling.TrainingData;
import dev.compress.training.sampling.TripletSampler;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.UnaryOperator;

/** Pieces every DJL trainer needs: the optimiser step, validation, batch gathering, timing. */
final class TrainerSupport {

    private TrainerSupport() {}

    static Optimizer adamW(double learningRate, double weightDecay) {
        return Optimizer.adamW()
                .optLearningRateTracker(Tracker.fixed((float) learningRate))
                .optWeightDecays((float) weightDecay)
                .build();
    }

    /**
     * One AdamW update per parameter through DJL's optimizer, which also zeroes the gradient (DJL
     * accumulates otherwise); the gradient wrapper is closed afterwards, as DJL's parameter server does.
     */
    static void update(Optimizer optimizer, Map<String, NDArray> trainable) {
        for (Map.Entry<String, NDArray> e : trainable.entrySet()) {
            NDArray grad = e.getValue().getGradient();
            optimizer.update(e.getKey(), e.getValue(), grad);
            grad.close();
        }
    }

    /**
     * Validation nDCG@10 (exact float search) of the space {@code f} maps vectors into. A corpus on the heap
     * is encoded up front; one on disk is encoded block by block during the search.
     */
    static Scores validate(NDManager base, UnaryOperator<NDArray> f, EvalSet validation) {
        VectorSet q = BatchEncoding.encode(base, f, validation.queries());
        VectorRows c = BatchEncoding.encode(base, f, validation.corpus());
        return RetrievalEvaluator.standard().evaluate(validation.encoded(q, c), Encoding.FLOAT);
    }

    /** Validation nDCG@10 of each prefix of {@code f}'s output in {@code dims}, each L2-normalised, and per query their mean. */
    static PrefixScores validatePrefixes(
            NDManager base, UnaryOperator<NDArray> f, List<Integer> dims, EvalSet validation) {
        VectorSet q = BatchEncoding.encode(base, f, validation.queries());
        VectorRows c = BatchEncoding.encode(base, f, validation.corpus());
        Map<Integer, Scores> byDimension = new TreeMap<>();
        double[] ndcg = null;
        double recall = 0;
        for (int d : dims) {
            Scores s = RetrievalEvaluator.standard()
                    .evaluate(validation.encoded(prefix(q, d), prefix(c, d)), Encoding.FLOAT);
            byDimension.put(d, s);
            if (ndcg == null) {
                ndcg = new double[s.perQueryNdcg().length];
            }
            for (int i = 0; i < ndcg.length; i++) {
                ndcg[i] += s.perQueryNdcg()[i] / dims.size();
            }
            recall += s.recall() / dims.size();
        }
        Scores mean = new Scores(Arrays.stream(ndcg).average().orElse(0), recall, ndcg);
        return new PrefixScores(mean, Collections.unmodifiableMap(byDimension));
    }

    static VectorSet prefix(VectorSet v, int d) {
        return v.transform(d, prefixFunction(v.dim(), d));
    }

    /** The first {@code d} values of each row, L2-normalised (a view for a source off the heap). */
    static VectorRows prefix(VectorRows v, int d) {
        return v.transform(d, prefixFunction(v.dim(), d));
    }

    private static VectorRows.BlockFunction prefixFunction(int dim, int d) {
        return (rows, count) -> {
            float[] out = new float[count * d];
            for (int i = 0; i < count; i++) {
                double norm = 0;
                for (int j = 0; j < d; j++) {
                    float x = rows[i * dim + j];
                    out[i * d + j] = x;
                    norm += (double) x * x;
                }
                float inv = norm > 0 ? (float) (1 / Math.sqrt(norm)) : 0f;
                for (int j = 0; j < d; j++) {
                    out[i * d + j] *= inv;
                }
            }
            return out;
        };
    }

    /** Rows of {@code from} stacked into {@code to} starting at row {@code toRow}. */
    private static void gather(VectorRows from, int[] rows, int offset, int n, float[] to, int toRow) {
        int d = from.dim();
        for (int i = 0; i < n; i++) {
            from.readBlock(rows[offset + i], 1, to, (toRow + i) * d);
        }
    }

    /**
     * The rows [queries; positives; negatives] of triplets {@code start .. start + n - 1} into the first
     * {@code 3 n} rows of {@code to}.
     */
    static void gatherTriplets(
            VectorRows queries, VectorRows corpus, TripletSampler.Triplets t, int start, int n, float[] to) {
        gather(queries, t.query(), start, n, to, 0);
        gather(corpus, t.positive(), start, n, to, n);
        gather(corpus, t.negative(), start, n, to, 2 * n);
    }

    /** Gain of every judged (query row, corpus row) pair of the training data. */
    static Map<Long, Float> gains(TrainingData data) {
        Map<Long, Float> g = new HashMap<>();
        for (PositivePair p : data.positives()) {
            g.put(key(p.query(), p.doc(), data.corpus().size()), p.gain());
        }
        return g;
    }

    static long key(int query, int doc, int corpusSize) {
        return (long) query * corpusSize + doc;
    }

    /**
     * Relevance of each candidate document to each query of a triplet batch: [n, 2n] over the columns
     * (positives of the batch, then negatives), gain where judged relevant, else 0. Other queries'
     * positives that are also relevant to query i count as relevant (no false negatives in batch).
     */
    static NDArray batchRelevance(
            NDManager m, TripletSampler.Triplets t, int start, int n, Map<Long, Float> gains, int corpusSize) {
        float[] y = new float[n * 2 * n];
        for (int i = 0; i < n; i++) {
            int q = t.query()[start + i];
            for (int j = 0; j < 2 * n; j++) {
                int doc = j < n ? t.positive()[start + j] : t.negative()[start + j - n];
                y[i * 2 * n + j] = gains.getOrDefault(key(q, doc, corpusSize), 0f);
            }
        }
        return m.create(y, new Shape(n, 2L * n));
    }

    /** Row-wise L2 normalisation of the first {@code d} columns. */
    static NDArray normalisedPrefix(NDArray x, int d) {
        return DjlLayers.finish(x, d, true);
    }

    static double seconds(long since) {
        return (System.nanoTime() - since) / 1e9;
    }
}
