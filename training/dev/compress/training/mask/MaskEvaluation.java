package dev.compress.training.mask;

import dev.compress.training.data.EvalSet;
import dev.compress.training.data.VectorRows;
import dev.compress.training.data.VectorSet;
import dev.compress.training.eval.Encoding;
import dev.compress.training.eval.ExactSearch;
import dev.compress.training.eval.RetrievalEvaluator;
import dev.compress.training.eval.Scores;
import dev.compress.training.inference.Encoder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Scores per-query masks: every query of an {@link EvalSet} is masked, then searched exactly against the
 * unmasked corpus (masked dot product). The PRF masks take their feedback from a first-pass exact search
 * with the full query: DIME uses the top {@code feedbackDocs}; Eclipse the same as pseudo-relevant and
 * the {@code negativeDocs} documents ranked just above {@code negativeDepth} as pseudo-irrelevant (the
 * tail of the first-pass list, as Eclipse takes its pseudo-irrelevant documents from the bottom of the
 * retrieved list; where the paper leaves the depth open, 1000 is used by default).
 */
public final class MaskEvaluation {

    /** A mask for query row {@code row} of the evaluated set. */
    public interface MaskFunction {
        boolean[] mask(int row, float[] query);
    }

    /** PRF parameters. */
    public record Prf(int feedbackDocs, int negativeDocs, int negativeDepth) {
        public static Prf defaults() {
            return new Prf(1, 10, 1000);
        }
    }

    /** One line of a mask table. */
    public record Row(String mask, double ratio, int kept, Scores scores) {}

    private final RetrievalEvaluator evaluator;

    public MaskEvaluation(RetrievalEvaluator evaluator) {
        this.evaluator = evaluator;
    }

    public Scores evaluate(EvalSet set, MaskFunction f) {
        VectorSet q = set.queries();
        float[] out = new float[q.size() * q.dim()];
        for (int i = 0; i < q.size(); i++) {
            boolean[] mask = f.mask(i, q.row(i));
            System.arraycopy(DimensionMasks.apply(q.row(i), mask), 0, out, i * q.dim(), q.dim());
        }
        return evaluator.evaluate(set.encoded(new VectorSet(q.ids(), out, q.dim()), set.corpus()), Encoding.FLOAT);
    }

    /**
     * The table of Learning to Select: the full baseline, then cutoff, norm, DIME-PRF, Eclipse-PRF and (when
     * {@code predictor} is given) learned masks at each ratio.
     */
    public List<Row> table(EvalSet set, List<Double> ratios, Encoder predictor, Prf prf) {
        int dim = set.queries().dim();
        List<Row> rows = new ArrayList<>();
        rows.add(new Row("full", 1.0, dim, evaluator.evaluate(set, Encoding.FLOAT)));
        List<Row> baselines = baselines(set, ratios, prf);
        List<Row> learned = predictor == null ? List.of() : learned(set, ratios, predictor, prf);
        for (int i = 0; i < ratios.size(); i++) {
            rows.addAll(baselines.subList(4 * i, 4 * i + 4));
            if (predictor != null) {
                rows.add(learned.get(i));
            }
        }
        return rows;
    }

    /** Cutoff, norm, DIME-PRF and Eclipse-PRF rows (in that order) at each ratio. */
    public List<Row> baselines(EvalSet set, List<Double> ratios, Prf prf) {
        int dim = set.queries().dim();
        int depth = Math.min(set.corpus().size(), Math.max(prf.feedbackDocs(), prf.negativeDepth()));
        int[][] firstPass = ExactSearch.search(set.queries(), set.corpus(), depth);
        List<Row> rows = new ArrayList<>();
        for (double ratio : ratios) {
            int k = DimensionMasks.keep(dim, ratio);
            rows.add(new Row("cutoff", ratio, k, evaluate(set, (i, q) -> DimensionMasks.cutoff(dim, k))));
            rows.add(new Row("norm", ratio, k, evaluate(set, (i, q) -> DimensionMasks.norm(q, k))));
            rows.add(new Row(
                    "dime_prf",
                    ratio,
                    k,
                    evaluate(
                            set,
                            (i, q) -> DimensionMasks.dimePrf(
                                    q, docs(set.corpus(), firstPass[i], 0, prf.feedbackDocs()), k))));
            rows.add(new Row(
                    "eclipse_prf",
                    ratio,
                    k,
                    evaluate(
                            set,
                            (i, q) -> DimensionMasks.eclipsePrf(
                                    q,
                                    docs(set.corpus(), firstPass[i], 0, prf.feedbackDocs()),
                                    docs(
                                            set.corpus(),
                                            firstPass[i],
                                            Math.max(prf.feedbackDocs(), firstPass[i].length - prf.negativeDocs()),
                                            firstPass[i].length),
                                    k))));
        }
        return rows;
    }

    /**
     * Learned-mask rows at each ratio: the top k of the predictor's scores for each query, from the query and, for a
     * predictor that reads it, the feedback of an exact first pass ({@link FeedbackFeatures}).
     */
    public List<Row> learned(EvalSet set, List<Double> ratios, Encoder predictor, Prf prf) {
        int dim = set.queries().dim();
        VectorSet input = FeedbackFeatures.readBy(predictor)
                ? FeedbackFeatures.of(set.queries(), set.corpus(), prf.feedbackDocs())
                : set.queries();
        float[][] scores = predictor.encode(rowsOf(input));
        List<Row> rows = new ArrayList<>();
        for (double ratio : ratios) {
            int k = DimensionMasks.keep(dim, ratio);
            rows.add(new Row("learned", ratio, k, evaluate(set, (i, q) -> DimensionMasks.topK(scores[i], k))));
        }
        return rows;
    }

    /** Ratios step, 2 step, ..., 1 (rounded to 1e-9, so 0.3 is exactly 15 x 0.02). */
    public static List<Double> sweep(double step) {
        if (!(step > 0 && step <= 1)) {
            throw new IllegalArgumentException("step must be in (0, 1], got " + step);
        }
        List<Double> r = new ArrayList<>();
        for (int i = 1; i * step <= 1 + 1e-9; i++) {
            r.add(Math.round(i * step * 1e9) / 1e9);
        }
        return r;
    }

    static float[][] docs(VectorRows corpus, int[] ranked, int from, int to) {
        to = Math.min(to, ranked.length);
        float[][] out = new float[Math.max(0, to - from)][];
        for (int i = from; i < to; i++) {
            out[i - from] = corpus.row(ranked[i]);
        }
        return out;
    }

    public static float[][] rowsOf(VectorSet v) {
        float[][] out = new float[v.size()][];
        for (int i = 0; i < v.size(); i++) {
            out[i] = v.row(i);
        }
        return out;
    }

    public static Map<String, Object> json(Row r, Scores baseline) {
        double[] diff = r.scores().pairedDifference(baseline);
        return Map.of(
                "mask",
                r.mask(),
                "ratio",
                r.ratio(),
                "kept",
                r.kept(),
                "ndcg@10",
                r.scores().ndcg(),
                "recall@10",
                r.scores().recall(),
                "ratioToFull",
                r.scores().ndcg() / baseline.ndcg(),
                "pairedDiffToFull",
                diff[0],
                "pairedDiffStdErr",
                diff[1]);
    }
}
