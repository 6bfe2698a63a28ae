package dev.compress.training.mask;

import dev.compress.training.data.EvalSet;
import dev.compress.training.eval.Scores;
import dev.compress.training.inference.Encoder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Table 1 of Learning to Select for one data set and embedding model: every mask at a fixed retained ratio, and at
 * the best ratio of a sweep. The sweep's best is picked on the evaluated (test) queries themselves, so
 * it is an oracle upper bound, labelled as such, never a result. Learned masks come from one predictor
 * per training seed: their row is the mean over seeds (with the standard deviation across seeds), and
 * the paired difference compares the seed-averaged per-query nDCG@10 with the full query's.
 */
public final class MaskTable {

    /** The masks in table order. */
    public static final List<String> MASKS = List.of("cutoff", "norm", "dime_prf", "eclipse_prf", "learned");

    /**
     * One mask's line.
     *
     * @param sdAcrossSeeds  standard deviation of nDCG@10 at {@code ratio} across predictor seeds (0 for fixed masks)
     * @param pairedDiff     mean per-query nDCG@10 difference to the full query at {@code ratio}, and its standard error
     * @param bestRatio      the sweep ratio with the highest nDCG@10 on the evaluated queries (oracle choice)
     */
    public record Line(
            String mask, double ndcg, double sdAcrossSeeds, double[] pairedDiff, double bestRatio, double bestNdcg) {}

    /** The table for one data set and model; {@code full} is the unmasked query of the same run. */
    public record Result(
            String dataset,
            String model,
            String split,
            int queries,
            int seeds,
            double ratio,
            Scores full,
            List<Line> lines) {

        public Map<String, Object> json() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("dataset", dataset);
            m.put("model", model);
            m.put("split", split);
            m.put("queries", queries);
            m.put("seeds", seeds);
            m.put("ratio", ratio);
            m.put("fullNdcg", full.ndcg());
            List<Map<String, Object>> rows = new ArrayList<>();
            for (Line l : lines) {
                Map<String, Object> r = new LinkedHashMap<>();
                r.put("mask", l.mask());
                r.put("ndcg@10", l.ndcg());
                r.put("ratioToFull", l.ndcg() / full.ndcg());
                r.put("sdAcrossSeeds", l.sdAcrossSeeds());
                r.put("pairedDiffToFull", l.pairedDiff()[0]);
                r.put("pairedDiffStdErr", l.pairedDiff()[1]);
                r.put("sweepBestRatio_oracle", l.bestRatio());
                r.put("sweepBestNdcg_oracle", l.bestNdcg());
                r.put("sweepBestRatioToFull_oracle", l.bestNdcg() / full.ndcg());
                rows.add(r);
            }
            m.put("masks", rows);
            return m;
        }
    }

    private MaskTable() {}

    /**
     * Evaluates every mask on {@code test} at {@code ratio} and at each ratio of {@link MaskEvaluation#sweep(double)}.
     *
     * @param predictors one trained mask predictor per seed (empty: no learned line)
     */
    public static Result build(
            String dataset,
            String model,
            String split,
            EvalSet test,
            MaskEvaluation evaluation,
            List<Encoder> predictors,
            double ratio,
            double step,
            MaskEvaluation.Prf prf) {
        List<Double> ratios = new ArrayList<>(MaskEvaluation.sweep(step));
        if (!ratios.contains(ratio)) {
            ratios.add(ratio);
        }
        List<MaskEvaluation.Row> full = evaluation.table(test, List.of(), null, prf);
        Scores fullScores = full.get(0).scores();
        List<MaskEvaluation.Row> baselines = evaluation.baselines(test, ratios, prf);
        List<List<MaskEvaluation.Row>> learned = new ArrayList<>();
        for (Encoder p : predictors) {
            learned.add(evaluation.learned(test, ratios, p, prf));
        }
        List<Line> lines = new ArrayList<>();
        for (String mask : MASKS) {
            List<List<Scores>> perSeed = new ArrayList<>(); // [seed][ratio]
            if (mask.equals("learned")) {
                for (List<MaskEvaluation.Row> rows : learned) {
                    perSeed.add(rows.stream().map(MaskEvaluation.Row::scores).toList());
                }
            } else {
                perSeed.add(baselines.stream()
                        .filter(r -> r.mask().equals(mask))
                        .map(MaskEvaluation.Row::scores)
                        .toList());
            }
            if (perSeed.isEmpty()) {
                continue;
            }
            lines.add(line(mask, ratios, ratios.indexOf(ratio), perSeed, fullScores));
        }
        return new Result(dataset, model, split, test.queries().size(), predictors.size(), ratio, fullScores, lines);
    }

    private static Line line(String mask, List<Double> ratios, int at, List<List<Scores>> perSeed, Scores full) {
        Scores mean = mean(perSeed.stream().map(s -> s.get(at)).toList());
        double[] values = perSeed.stream().mapToDouble(s -> s.get(at).ndcg()).toArray();
        double bestRatio = Double.NaN;
        double bestNdcg = Double.NEGATIVE_INFINITY;
        for (int r = 0; r < ratios.size(); r++) {
            int i = r;
            double v = mean(perSeed.stream().map(s -> s.get(i)).toList()).ndcg();
            if (v > bestNdcg) {
                bestNdcg = v;
                bestRatio = ratios.get(r);
            }
        }
        return new Line(mask, mean.ndcg(), sd(values), mean.pairedDifference(full), bestRatio, bestNdcg);
    }

    /** Per-query mean over seeds (one seed: itself). */
    static Scores mean(List<Scores> seeds) {
        int n = seeds.get(0).perQueryNdcg().length;
        double[] q = new double[n];
        double recall = 0;
        for (Scores s : seeds) {
            for (int i = 0; i < n; i++) {
                q[i] += s.perQueryNdcg()[i] / seeds.size();
            }
            recall += s.recall() / seeds.size();
        }
        return new Scores(Arrays.stream(q).average().orElse(0), recall, q);
    }

    static double sd(double[] v) {
        if (v.length < 2) {
            return 0;
        }
        double mean = Arrays.stream(v).average().orElse(0);
        return Math.sqrt(Arrays.stream(v).map(x -> (x - mean) * (x - mean)).sum() / (v.length - 1));
    }

    /** The tables as one Markdown table: nDCG@10 and its ratio to the full query, at the ratio and at the sweep's best. */
    public static String markdown(List<Result> results) {
        StringBuilder b = new StringBuilder();
        double ratio = results.isEmpty() ? 0 : results.get(0).ratio();
        b.append(String.format(
                Locale.ROOT,
                "| data set (queries) | model | mask | nDCG@10 at %d%% | ratio to full | paired diff "
                        + "| sweep best* ratio | sweep best* nDCG@10 (ratio to full) |%n",
                Math.round(ratio * 100)));
        b.append("|---|---|---|---|---|---|---|---|\n");
        for (Result r : results) {
            b.append(String.format(
                    Locale.ROOT,
                    "| %s %s (%d) | %s | full | %.4f | 1.000 | | | |%n",
                    r.dataset(),
                    r.split(),
                    r.queries(),
                    r.model(),
                    r.full().ndcg()));
            for (Line l : r.lines()) {
                String seeds = l.mask().equals("learned") && r.seeds() > 1
                        ? String.format(Locale.ROOT, " ± %.4f (%d seeds)", l.sdAcrossSeeds(), r.seeds())
                        : "";
                b.append(String.format(
                        Locale.ROOT,
                        "| | | %s | %.4f%s | %.3f | %+.4f ± %.4f | %.2f | %.4f (%.3f) |%n",
                        l.mask(),
                        l.ndcg(),
                        seeds,
                        l.ndcg() / r.full().ndcg(),
                        l.pairedDiff()[0],
                        l.pairedDiff()[1],
                        l.bestRatio(),
                        l.bestNdcg(),
                        l.bestNdcg() / r.full().ndcg()));
            }
        }
        b.append(
                "\n*sweep best: the ratio is chosen on the test queries themselves (an oracle upper bound, not a result).\n");
        return b.toString();
    }
}
