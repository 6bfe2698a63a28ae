package dev.compress.training.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.compress.training.data.DataDirectory;
import dev.compress.training.data.EmbeddedDataset;
import dev.compress.training.data.EvalSet;
import dev.compress.training.data.Qrels;
import dev.compress.training.eval.Encoding;
import dev.compress.training.eval.ModelEvaluator;
import dev.compress.training.eval.RetrievalEvaluator;
import dev.compress.training.eval.Scores;
import dev.compress.training.job.TrainingRun;
import dev.compress.training.sampling.QuerySplit;
import dev.compress.training.sampling.TrainingData;
import dev.compress.training.trainer.Folds;
import dev.compress.training.trainer.PcaTrainer;
import dev.compress.training.trainer.QueryMaskTrainer;
import dev.compress.training.trainer.Selection;
import dev.compress.training.trainer.Trainer;
import dev.compress.training.trainer.TrainingBudget;
import dev.compress.training.trainer.TrainingListener;
import dev.compress.training.trainer.TruncationTrainer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * {@code TrainCli cv}: K-fold cross-validation of one training parameter over a data set's training
 * queries, the way a default is chosen: no dev or test judgment is read. The judged training queries
 * are dealt into K seeded folds; each fold in turn is held out while the others train through the one
 * train-and-evaluate path ({@link TrainingRun}: their own validation slice picks the epoch and decides
 * against the PCA start, as in every run), and the shipped model is scored on the held-out fold beside
 * PCA at the same dims and the frozen vectors. Pooled over the folds, every training query is scored
 * once per value, by a model that did not train on it.
 *
 * <pre>
 * cv --dataset scifact --model bge-small-en-v1.5 --method temperature_mrl --dims 64,128
 *    --grid lr=3e-4,1e-3,3e-3 [--folds 5] [--seed 0] [--max-minutes M] [--report cv.json] [train flags]
 * </pre>
 *
 * Per value and dims it prints the pooled held-out nDCG@10 as a ratio of the frozen vectors and the
 * paired per-query difference to PCA. The value with the highest difference to PCA, averaged over the
 * dims, is the cross-validated choice; every other value is set beside it as a paired difference.
 */
final class CrossValidateCommand {

    private CrossValidateCommand() {}

    /** One value of the parameter: the held-out nDCG@10 of every judged training query, pooled over the folds. */
    record ValueResult(String value, Map<Integer, double[]> learned, Map<Integer, double[]> pca, double[] frozen) {

        /** Per query: the learned model's nDCG@10 minus PCA's, averaged over the dims. */
        double[] gainOverPca() {
            double[] gain = new double[frozen.length];
            for (int d : learned.keySet()) {
                for (int q = 0; q < gain.length; q++) {
                    gain[q] += (learned.get(d)[q] - pca.get(d)[q]) / learned.size();
                }
            }
            return gain;
        }

        Map<String, Object> json(int dims) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("dims", dims);
            m.put("ratio_to_frozen", mean(learned.get(dims)) / mean(frozen));
            m.put("pca_ratio_to_frozen", mean(pca.get(dims)) / mean(frozen));
            double[] diff = Scores.pairedDifference(learned.get(dims), pca.get(dims));
            m.put("paired_diff_to_pca", diff[0]);
            m.put("paired_diff_stderr", diff[1]);
            return m;
        }
    }

    static void run(Map<String, String> opt) throws Exception {
        String dataset = TrainCli.require(opt, "dataset");
        String model = TrainCli.require(opt, "model");
        String method = TrainCli.require(opt, "method").toLowerCase(Locale.ROOT);
        List<Integer> dims = Arrays.stream(TrainCli.require(opt, "dims").split(","))
                .map(s -> Integer.parseInt(s.trim()))
                .sorted()
                .toList();
        if (List.of(PcaTrainer.METHOD, TruncationTrainer.METHOD, QueryMaskTrainer.METHOD)
                .contains(method)) {
            throw new IllegalArgumentException(
                    "cv compares values of a training parameter of an embedding adapter against" + " PCA; [" + method
                            + "] has none");
        }
        String[] grid = TrainCli.require(opt, "grid").split("=", 2);
        if (grid.length != 2 || grid[1].isBlank()) {
            throw new IllegalArgumentException("--grid takes flag=value[,value...], got [" + opt.get("grid") + "]");
        }
        String flag = grid[0];
        List<String> values =
                Arrays.stream(grid[1].split(",")).map(String::trim).toList();
        long seed = Long.parseLong(opt.getOrDefault("seed", "0"));
        List<Map<String, Object>> parameters = new ArrayList<>();
        for (String value : values) {
            Map<String, String> withValue = new HashMap<>(opt);
            withValue.put(flag, value);
            parameters.add(TrainCli.parameters(withValue, method));
            // a value the method refuses fails here, not after hours of training
            TrainCli.trainers(method, dims, parameters.getLast(), seed, opt.getOrDefault("device", "auto"));
        }
        if (new HashSet<>(parameters).size() < values.size()) {
            throw new IllegalArgumentException("--grid [" + flag + "] is not a training flag of " + method
                    + ", or its values repeat: the runs would not differ");
        }
        int k = Integer.parseInt(opt.getOrDefault("folds", "5"));
        double validationFraction = Double.parseDouble(opt.getOrDefault("val-fraction", "0.1"));
        int hardNegatives = Integer.parseInt(
                opt.getOrDefault("hard-k", Integer.toString(Trainer.DEFAULT_HARD_NEGATIVES_PER_QUERY)));
        Duration budget = opt.containsKey("max-minutes")
                ? Duration.ofSeconds(Math.round(Double.parseDouble(opt.get("max-minutes")) * 60))
                : TrainingBudget.DEFAULT;
        Path dataDir = opt.containsKey("data") ? Path.of(opt.get("data")) : DataDirectory.resolve();
        EmbeddedDataset ds = EmbeddedDataset.load(dataDir, dataset, model, EmbeddedDataset.CorpusStorage.BY_SIZE);
        Qrels train = ds.beir().qrels(opt.getOrDefault("train-split", "train"));
        List<String> judged = QuerySplit.judged(train).stream().sorted().toList();
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < judged.size(); i++) {
            index.put(judged.get(i), i);
        }
        Folds folds = Folds.of(judged.size(), k, seed);
        System.out.printf(
                Locale.ROOT,
                "%s / %s / %s: %d judged training queries in %d folds; %s over %s%n",
                dataset,
                model,
                method,
                judged.size(),
                k,
                flag,
                values);

        List<ValueResult> results = new ArrayList<>();
        for (int v = 0; v < values.size(); v++) {
            Map<Integer, double[]> learned = new TreeMap<>();
            Map<Integer, double[]> pca = new TreeMap<>();
            double[] frozen = new double[judged.size()];
            for (int f = 0; f < k; f++) {
                Set<String> heldOut = ids(judged, folds.heldOut(f));
                Qrels rest = train.restrictTo(ids(judged, folds.training(f)));
                QuerySplit split =
                        QuerySplit.ofDatasetSplits(rest, train.restrictTo(heldOut), validationFraction, seed);
                TrainingData data = TrainingData.build(ds, rest, split, hardNegatives);
                EvalSet test = ds.evalSet(train.restrictTo(heldOut));
                for (Trainer trainer :
                        TrainCli.trainers(method, dims, parameters.get(v), seed, opt.getOrDefault("device", "auto"))) {
                    TrainingRun.Outcome outcome = TrainingRun.run(
                            data,
                            test,
                            trainer,
                            TrainingListener.NONE,
                            budget,
                            RetrievalEvaluator.standard(),
                            List.of());
                    for (ModelEvaluator.Row row : outcome.heldOut().rows()) {
                        if (row.encoding() != Encoding.FLOAT) {
                            continue;
                        }
                        double[] into = row.method().equals("frozen")
                                ? frozen
                                : (row.method().equals(PcaTrainer.METHOD) ? pca : learned)
                                        .computeIfAbsent(row.dims(), d -> new double[judged.size()]);
                        double[] perQuery = row.scores().perQueryNdcg();
                        for (int i = 0; i < perQuery.length; i++) {
                            into[index.get(test.queries().id(i))] = perQuery[i];
                        }
                    }
                    Selection selection = outcome.report().selection();
                    System.out.printf(
                            Locale.ROOT,
                            "  %s=%s fold %d/%d (%d held out): shipped %s%n",
                            flag,
                            values.get(v),
                            f + 1,
                            k,
                            heldOut.size(),
                            selection == null
                                    ? "the closed form"
                                    : selection.shippedStart()
                                            ? "the PCA start"
                                            : "trained weights (epoch " + selection.shippedEpoch() + ")");
                }
            }
            results.add(new ValueResult(values.get(v), learned, pca, frozen));
        }

        ValueResult chosen = results.get(0);
        for (ValueResult r : results) {
            if (mean(r.gainOverPca()) > mean(chosen.gainOverPca())) {
                chosen = r;
            }
        }
        System.out.printf(
                Locale.ROOT,
                "%n%-12s %5s %14s %12s %20s%n",
                flag,
                "dims",
                "held-out/froz",
                "PCA/frozen",
                "vs PCA (mean±se)");
        List<Map<String, Object>> rows = new ArrayList<>();
        for (ValueResult r : results) {
            List<Map<String, Object>> perDims = new ArrayList<>();
            for (int d : r.learned().keySet()) {
                Map<String, Object> m = r.json(d);
                perDims.add(m);
                System.out.printf(
                        Locale.ROOT,
                        "%-12s %5d %14.4f %12.4f %+12.4f±%.4f%n",
                        r.value(),
                        d,
                        (double) m.get("ratio_to_frozen"),
                        (double) m.get("pca_ratio_to_frozen"),
                        (double) m.get("paired_diff_to_pca"),
                        (double) m.get("paired_diff_stderr"));
            }
            double[] vsChosen = Scores.pairedDifference(r.gainOverPca(), chosen.gainOverPca());
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("value", r.value());
            row.put("dims", perDims);
            row.put("gain_over_pca", mean(r.gainOverPca()));
            row.put("paired_diff_to_chosen", vsChosen[0]);
            row.put("paired_diff_to_chosen_stderr", vsChosen[1]);
            rows.add(row);
        }
        System.out.printf(Locale.ROOT, "%ncross-validated choice: %s=%s%n", flag, chosen.value());
        for (Map<String, Object> row : rows) {
            if (row.get("value").equals(chosen.value()) == false) {
                System.out.printf(
                        Locale.ROOT,
                        "  %s=%s against it: %+.4f±%.4f (paired, averaged over dims)%n",
                        flag,
                        row.get("value"),
                        (double) row.get("paired_diff_to_chosen"),
                        (double) row.get("paired_diff_to_chosen_stderr"));
            }
        }
        if (opt.containsKey("report")) {
            Map<String, Object> report = new LinkedHashMap<>();
            report.put("dataset", dataset);
            report.put("model", model);
            report.put("method", method);
            report.put("parameter", flag);
            report.put("folds", k);
            report.put("seed", seed);
            report.put("queries", judged.size());
            report.put("results", rows);
            report.put("chosen", chosen.value());
            new ObjectMapper()
                    .enable(SerializationFeature.INDENT_OUTPUT)
                    .writeValue(Path.of(opt.get("report")).toFile(), report);
        }
    }

    private static Set<String> ids(List<String> judged, int[] items) {
        Set<String> out = new HashSet<>();
        for (int i : items) {
            out.add(judged.get(i));
        }
        return out;
    }

    private static double mean(double[] x) {
        return Arrays.stream(x).average().orElse(Double.NaN);
    }
}
