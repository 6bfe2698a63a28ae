package dev.compress.training.trainer;

import dev.compress.training.data.EvalSet;
import dev.compress.training.data.Qrels;
import dev.compress.training.eval.Encoding;
import dev.compress.training.eval.RetrievalEvaluator;
import dev.compress.training.eval.Scores;
import dev.compress.training.mask.DimensionMasks;
import dev.compress.training.mask.MaskEvaluation;
import dev.compress.training.sampling.PositivePair;
import dev.compress.training.sampling.TrainingData;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Per-query masked nDCG@10 of every mask the query-mask trainer may serve, measured on all the judged
 * training queries rather than on the small validation slice, so the choice among some sixty candidates
 * does not hinge on which queries that slice happened to draw. The judgment-free masks (norm, DIME-PRF,
 * Eclipse-PRF) learn nothing, so every training query scores them directly. The learned predictor is
 * cross-validated: the judged training queries are dealt into K seeded {@link Folds}; for each fold a
 * predictor trained on every other training query scores that fold, so each query's learned-mask nDCG@10
 * comes from a predictor that never saw its judgments (out of fold). Each candidate's {@link Scores} hold one
 * value per judged training query in the row order of {@link #set()}, paired with {@link #full()}.
 */
public final class MaskCrossValidation {

    /** Trains a predictor on some training queries and scores others; implemented with DJL by the trainer. */
    public interface FoldPredictor {
        /**
         * @param trainRows   rows of {@link TrainingData#queries()} to train on
         * @param heldOutRows rows of {@link TrainingData#queries()} to score, none of them in {@code trainRows}
         * @return the D dimension scores of each held-out row, in order; null when training stopped early (the
         *     budget or a cancel), since a predictor cut short would understate the learned mask
         */
        float[][] trainAndScore(int[] trainRows, int[] heldOutRows);
    }

    /** A mask that may be served; {@code tau} is NaN for the judgment-free masks. */
    public record Candidate(String mask, double tau, double ratio, Scores scores) {}

    private final TrainingData data;
    private final EvalSet set;
    private final int[] queryRows;
    private final Folds folds;
    private final MaskEvaluation masks;
    private final Scores full;

    public MaskCrossValidation(TrainingData data, int k, long seed, RetrievalEvaluator evaluator) {
        this.data = data;
        Map<Integer, Map<String, Integer>> judged = new TreeMap<>();
        for (PositivePair p : data.positives()) {
            // the gain is 2^grade - 1; nDCG@10 weighs a document by its grade, as on the held-out judgments
            int grade = (int) Math.round(Math.log(p.gain() + 1.0) / Math.log(2));
            judged.computeIfAbsent(p.query(), q -> new LinkedHashMap<>())
                    .put(data.corpus().id(p.doc()), grade);
        }
        this.queryRows = judged.keySet().stream().mapToInt(Integer::intValue).toArray();
        Map<String, Map<String, Integer>> qrels = new LinkedHashMap<>();
        judged.forEach((row, j) -> qrels.put(data.queries().id(row), j));
        this.set = new EvalSet(data.queries().select(queryRows), data.corpus(), new Qrels(qrels));
        // fewer judged queries than folds: one query per fold (Folds refuses fewer than two)
        this.folds = Folds.of(queryRows.length, Math.min(k, queryRows.length), seed);
        this.masks = new MaskEvaluation(evaluator);
        this.full = evaluator.evaluate(set, Encoding.FLOAT);
    }

    /** The judged training queries every candidate is scored on. */
    public EvalSet set() {
        return set;
    }

    public Folds folds() {
        return folds;
    }

    /** The whole query on {@link #set()}: the baseline every candidate is paired with. */
    public Scores full() {
        return full;
    }

    /** The named judgment-free masks at each ratio, on every judged training query. */
    public List<Candidate> judgmentFree(List<String> names, List<Double> ratios) {
        List<Candidate> out = new ArrayList<>();
        for (MaskEvaluation.Row row : masks.baselines(set, ratios, MaskEvaluation.Prf.defaults())) {
            if (names.contains(row.mask())) {
                out.add(new Candidate(row.mask(), Double.NaN, row.ratio(), row.scores()));
            }
        }
        return out;
    }

    /**
     * The learned mask of one tau at each ratio, out of fold: K predictors, each trained without one fold and
     * scoring only that fold. Queries without judgments are never scored, so they train every fold's predictor.
     * Empty when a fold's training stopped early.
     */
    public List<Candidate> learned(double tau, List<Double> ratios, FoldPredictor predictor) {
        int n = set.queries().size();
        int d = set.queries().dim();
        double[][] ndcg = new double[ratios.size()][n];
        double[] recall = new double[ratios.size()];
        for (int f = 0; f < folds.k(); f++) {
            int[] heldOut = folds.heldOut(f);
            int[] heldOutRows = new int[heldOut.length];
            boolean[] excluded = new boolean[data.queries().size()];
            for (int i = 0; i < heldOut.length; i++) {
                heldOutRows[i] = queryRows[heldOut[i]];
                excluded[heldOutRows[i]] = true;
            }
            int[] trainRows = java.util.stream.IntStream.range(0, excluded.length)
                    .filter(r -> !excluded[r])
                    .toArray();
            float[][] scores = predictor.trainAndScore(trainRows, heldOutRows);
            if (scores == null) {
                return List.of();
            }
            EvalSet fold = new EvalSet(set.queries().select(heldOut), set.corpus(), set.qrels());
            for (int r = 0; r < ratios.size(); r++) {
                int keep = DimensionMasks.keep(d, ratios.get(r));
                Scores s = masks.evaluate(fold, (i, q) -> DimensionMasks.topK(scores[i], keep));
                for (int i = 0; i < heldOut.length; i++) {
                    ndcg[r][heldOut[i]] = s.perQueryNdcg()[i];
                }
                recall[r] += s.recall() * heldOut.length / n;
            }
        }
        List<Candidate> out = new ArrayList<>();
        for (int r = 0; r < ratios.size(); r++) {
            double mean = java.util.Arrays.stream(ndcg[r]).average().orElse(0);
            out.add(new Candidate("learned", tau, ratios.get(r), new Scores(mean, recall[r], ndcg[r])));
        }
        return out;
    }
}
