package dev.compress.training.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.compress.training.data.DataDirectory;
import dev.compress.training.data.EmbeddedDataset;
import dev.compress.training.data.EvalSet;
import dev.compress.training.data.Qrels;
import dev.compress.training.data.VectorSet;
import dev.compress.training.engine.DjlRuntime;
import dev.compress.training.eval.Encoding;
import dev.compress.training.eval.ModelEvaluator;
import dev.compress.training.eval.RetrievalEvaluator;
import dev.compress.training.eval.Scores;
import dev.compress.training.job.EvaluationTable;
import dev.compress.training.job.HeldOutEvaluation;
import dev.compress.training.job.TrainingRun;
import dev.compress.training.mask.DimensionMasks;
import dev.compress.training.mask.MaskEvaluation;
import dev.compress.training.model.ModelFile;
import dev.compress.training.sampling.QuerySplit;
import dev.compress.training.sampling.TrainingData;
import dev.compress.training.trainer.DiveTrainer;
import dev.compress.training.trainer.QueryMaskConfig;
import dev.compress.training.trainer.QueryMaskTrainer;
import dev.compress.training.trainer.Selection;
import dev.compress.training.trainer.SmecTrainer;
import dev.compress.training.trainer.TemperatureConfig;
import dev.compress.training.trainer.Trainer;
import dev.compress.training.trainer.TrainerFactory;
import dev.compress.training.trainer.TrainingBudget;
import dev.compress.training.trainer.TrainingListener;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Command line: train a method on a BEIR data set's training queries, select epochs on a validation
 * slice of them, and report on the held-out split against the frozen full-dimension baseline of the
 * same run.
 *
 * <pre>
 * train --dataset scifact --model bge-small-en-v1.5 --method dive|pca|truncation --dims 64[,128]
 *       [--epochs N] [--seed S] [--device auto|cpu|gpu] [--out model.bin] [--report report.json]
 *       [--train-split train] [--test-split test] [--val-fraction 0.1] [--hard-k 100]
 *       [--paper] [--preserve W] [--patience P] [--lr LR] [--max-triplets N] [--batch-size B] [--centred-bits] [--centred-pca]
 *       [--max-minutes M (training time per model, default 8)] [--margin M] [--margin-scale score_gap|absolute]
 *       [--data DIR] [--corpus heap|mapped|by-size]
 * train ... --method matryoshka_adaptor|search_adaptor --dims 64[,128] [--alpha A] [--beta B] [--max-triplets N]
 * train ... --method smec --dims 64 [--epochs N (per stage)] [--adapter-stage1-only]
 * train ... --method temperature_mrl --dims 64[,128] [--variant temp_agg|temp_agg_mrl|temp_spec_mrl] [--alpha A]
 * train ... --method query_mask --ratios 0.3[,0.5] [--taus 0.01,0.03] [--epochs N] [--folds K]
 * mask-table [--datasets scifact,nfcorpus] [--models bge-small-en-v1.5,all-MiniLM-L6-v2] [--seeds 0,1,2] [--ratio 0.3]
 *            [--step 0.02] [--out table.md] [--report table.json]      (Table 1 of Learning to Select: {@link MaskTableCommand})
 * cv --dataset scifact --model bge-small-en-v1.5 --method temperature_mrl --dims 64,128 --grid lr=3e-4,1e-3,3e-3
 *    [--folds 5] [--seed S] [--report cv.json] [train flags]      (K-fold cross-validation over the training queries: {@link CrossValidateCommand})
 * </pre>
 * The adaptor family (Matryoshka-Adaptor, Search-Adaptor, SMEC, temperature MRL) trains one nested model
 * serving every {@code --dims}; query_mask prints the mask table of Learning to Select (full, cutoff, norm, DIME-PRF,
 * Eclipse-PRF, learned) at each ratio instead of the dims table.
 * Run from the repository root after {@code mvn -q compile}:
 * <pre>
 * mvn -q -o dependency:build-classpath -Dmdep.outputFile=target/cp.txt
 * OMP_WAIT_POLICY=PASSIVE java -Dai.djl.offline=true -DDJL_CACHE_DIR=target/djl-cache \
 *   -cp target/classes:$(cat target/cp.txt) dev.compress.training.cli.TrainCli train --dataset scifact ...
 * </pre>
 * With several {@code --dims}, DIVE trains one model per dimension and writes {@code <out>-<dims>.bin};
 * PCA and truncation write one model that serves every dimension.
 */
public final class TrainCli {

    static final String METHODS =
            "dive, pca, truncation, matryoshka_adaptor, search_adaptor, smec, temperature_mrl, query_mask";

    private TrainCli() {}

    public static void main(String[] args) throws Exception {
        if (args.length == 0 || !List.of("train", "mask-table", "cv").contains(args[0])) {
            System.err.println(
                    "usage: train --dataset NAME --model NAME --method " + METHODS.replace(", ", "|")
                            + " --dims D[,D...] (query_mask: --ratios R[,R...]) [options]\n"
                            + "       mask-table [--datasets scifact,nfcorpus] [--models M,...] [--seeds 0,1,2] [--ratio 0.3] [--step 0.02]\n"
                            + "       cv --dataset NAME --model NAME --method M --dims D[,D...] --grid FLAG=V1,V2[,...] [--folds 5] [options]");
            System.exit(2);
        }
        Map<String, String> opt = parse(Arrays.copyOfRange(args, 1, args.length));
        // an explicit -DDJL_CACHE_DIR (or env) wins; libtorch threads follow the machine unless set
        DjlRuntime.configure(new DjlRuntime.Configuration(
                Path.of("target", "djl-cache"),
                Integer.getInteger(
                        "ai.djl.pytorch.num_threads", Runtime.getRuntime().availableProcessors()),
                Integer.getInteger("ai.djl.pytorch.num_interop_threads", 1)));
        if (args[0].equals("mask-table")) {
            MaskTableCommand.run(opt);
            return;
        }
        if (args[0].equals("cv")) {
            CrossValidateCommand.run(opt);
            return;
        }
        String dataset = require(opt, "dataset");
        String model = require(opt, "model");
        String method = require(opt, "method").toLowerCase(Locale.ROOT);
        List<Integer> dims = method.equals(QueryMaskTrainer.METHOD)
                ? List.of()
                : Arrays.stream(require(opt, "dims").split(","))
                        .map(s -> Integer.parseInt(s.trim()))
                        .sorted()
                        .toList();
        long seed = Long.parseLong(opt.getOrDefault("seed", "0"));
        Path dataDir = opt.containsKey("data") ? Path.of(opt.get("data")) : DataDirectory.resolve();
        String trainSplit = opt.getOrDefault("train-split", "train");
        String testSplit = opt.getOrDefault("test-split", dataset.equals("nfcorpus") ? "dev" : "test");

        // by size unless told: a corpus that would crowd the heap stays memory-mapped (EmbeddedDataset.CorpusStorage)
        EmbeddedDataset ds = EmbeddedDataset.load(
                dataDir,
                dataset,
                model,
                EmbeddedDataset.CorpusStorage.valueOf(opt.getOrDefault("corpus", "by-size")
                        .toUpperCase(Locale.ROOT)
                        .replace('-', '_')));
        Qrels trainQrels = ds.beir().qrels(trainSplit);
        QuerySplit split = QuerySplit.ofDatasetSplits(
                trainQrels,
                ds.beir().qrels(testSplit),
                Double.parseDouble(opt.getOrDefault("val-fraction", "0.1")),
                seed);
        long t0 = System.nanoTime();
        TrainingData data = TrainingData.build(
                ds,
                trainQrels,
                split,
                Integer.parseInt(
                        opt.getOrDefault("hard-k", Integer.toString(Trainer.DEFAULT_HARD_NEGATIVES_PER_QUERY))));
        double prepSeconds = (System.nanoTime() - t0) / 1e9;
        EvalSet test = ds.evalSet(testSplit);
        System.out.printf(
                Locale.ROOT,
                "%s / %s: %d train, %d validation, %d held-out (%s) queries; corpus %d x %d (%s); data prep %.1f s%n",
                dataset,
                model,
                split.train().size(),
                split.validation().size(),
                test.queries().size(),
                testSplit,
                ds.corpus().size(),
                ds.dim(),
                ds.corpus() instanceof VectorSet ? "on the heap" : "memory-mapped",
                prepSeconds);

        RetrievalEvaluator retrieval = new RetrievalEvaluator(10, 100, opt.containsKey("centred-bits"));
        double frozenValidation =
                retrieval.evaluate(data.validation(), Encoding.FLOAT).ndcg();
        System.out.printf(
                Locale.ROOT, "frozen %d-d on the validation queries: nDCG@10 %.4f%n", ds.dim(), frozenValidation);
        java.time.Duration budget = opt.containsKey("max-minutes")
                ? java.time.Duration.ofSeconds(Math.round(Double.parseDouble(opt.get("max-minutes")) * 60))
                : TrainingBudget.DEFAULT;
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("dataset", dataset);
        report.put("model", model);
        report.put("method", method);
        report.put("engine", method.equals("pca") || method.equals("truncation") ? null : DjlRuntime.status());
        report.put(
                "split",
                Map.of(
                        "train",
                        split.train().size(),
                        "validation",
                        split.validation().size(),
                        "heldOut",
                        test.queries().size(),
                        "heldOutSplit",
                        testSplit,
                        "seed",
                        seed));
        report.put("dataPrepSeconds", prepSeconds);
        report.put("frozenValidationNdcg", frozenValidation);
        Path out = opt.containsKey("out") ? Path.of(opt.get("out")) : null;
        if (method.equals(QueryMaskTrainer.METHOD)) {
            runQueryMask(opt, seed, data, test, retrieval, budget, report, out);
        } else {
            runEmbedding(opt, method, dims, seed, data, test, retrieval, budget, frozenValidation, report, out);
        }
        Path reportFile = opt.containsKey("report")
                ? Path.of(opt.get("report"))
                : out != null ? out.resolveSibling(out.getFileName() + ".report.json") : null;
        if (reportFile != null) {
            new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(reportFile.toFile(), report);
            System.out.println("report written to " + reportFile);
        }
    }

    /** Trains and evaluates through {@link TrainingRun}, as {@code _train} does; DIVE trains one model per dimension. */
    private static void runEmbedding(
            Map<String, String> opt,
            String method,
            List<Integer> dims,
            long seed,
            TrainingData data,
            EvalSet test,
            RetrievalEvaluator retrieval,
            java.time.Duration budget,
            double frozenValidation,
            Map<String, Object> report,
            Path out)
            throws Exception {
        Map<String, Object> parameters = parameters(opt, method);
        String device = opt.getOrDefault("device", "auto");
        List<Trainer> trainers = trainers(method, dims, parameters, seed, device);
        List<TrainingRun.Outcome> outcomes = new ArrayList<>();
        List<Map<String, Object>> trainings = new ArrayList<>();
        for (Trainer trainer : trainers) {
            TrainingRun.Outcome outcome =
                    TrainingRun.run(data, test, trainer, TrainCli::printEpoch, budget, retrieval, List.of());
            outcomes.add(outcome);
            Selection selection = outcome.report().selection();
            if (selection != null) {
                System.out.printf(
                        Locale.ROOT,
                        "  shipped the %s (epoch %d): validation nDCG@10 start (PCA) %.4f, best epoch %d %.4f, frozen %.4f;"
                                + " paired lower bound %+.4f%s%n",
                        selection.shippedStart() ? "start" : "trained weights",
                        selection.shippedEpoch(),
                        selection.startNdcg(),
                        selection.bestEpoch(),
                        selection.bestNdcg(),
                        frozenValidation,
                        selection.lowerBound(),
                        selection.belowStartAt().isEmpty()
                                ? ""
                                : "; below the start at dims " + selection.belowStartAt());
            }
            Map<String, Object> t = new LinkedHashMap<>();
            t.put("dims", outcome.artifact().metadata().outputDims());
            t.put("report", outcome.report());
            trainings.add(t);
        }
        // one table: the frozen rows once, then each model's rows, then PCA's
        List<ModelEvaluator.Row> rows = new ArrayList<>();
        List<ModelEvaluator.Row> pca = new ArrayList<>();
        List<HeldOutEvaluation.PcaComparison> vsPca = new ArrayList<>();
        for (int i = 0; i < outcomes.size(); i++) {
            for (ModelEvaluator.Row r : outcomes.get(i).heldOut().rows()) {
                if (r.method().equals("frozen")) {
                    if (i == 0) {
                        rows.add(r);
                    }
                } else if (r.method().equals(method)) {
                    rows.add(r);
                } else {
                    pca.add(r);
                }
            }
            vsPca.addAll(outcomes.get(i).heldOut().vsPca());
        }
        rows.addAll(pca);
        Scores baseline = rows.get(0).scores();
        printTable(rows, baseline);
        if (!vsPca.isEmpty()) {
            System.out.printf(
                    Locale.ROOT,
                    "%nlearned against PCA at the same dims (paired per-query difference of nDCG@10, mean±se):%n");
            for (HeldOutEvaluation.PcaComparison c : vsPca) {
                System.out.printf(
                        Locale.ROOT,
                        "%-18s %5d %-15s %+7.4f±%.4f%n",
                        c.learned().method(),
                        c.learned().dims(),
                        c.learned().encoding().label(),
                        c.diff(),
                        c.stderr());
            }
        }
        for (TrainingRun.Outcome o : outcomes) {
            if (out != null) {
                Path file = outcomes.size() == 1
                        ? out
                        : suffixed(out, o.artifact().metadata().maxOutputDim());
                ModelFile.write(o.artifact(), file);
                System.out.println("model written to " + file + " (" + Files.size(file) + " bytes)");
            }
        }
        report.put("table", EvaluationTable.toJson(rows, baseline));
        report.put(
                "learnedVsPca",
                vsPca.stream().map(HeldOutEvaluation.PcaComparison::json).toList());
        report.put("training", trainings);
    }

    /** DIVE trains one output size per model; the others serve every requested size from one model. */
    static List<Trainer> trainers(
            String method, List<Integer> dims, Map<String, Object> parameters, long seed, String device) {
        return method.equals(DiveTrainer.METHOD)
                ? dims.stream()
                        .map(d -> TrainerFactory.create(method, List.of(d), parameters, seed, device))
                        .toList()
                : List.of(TrainerFactory.create(method, dims, parameters, seed, device));
    }

    /** Prints a mask job's validated epochs, then each fold training of its cross-validation. */
    private static final TrainingListener MASK_PROGRESS = new TrainingListener() {
        @Override
        public void onEpoch(dev.compress.training.trainer.EpochStats stats, int total) {
            if (stats.validationNdcg() != null) {
                System.out.printf(
                        Locale.ROOT,
                        "  epoch %4d  tau %s  val KL %.5f  val masked nDCG@10 %.4f%n",
                        stats.epoch(),
                        stats.losses().get("tau"),
                        stats.losses().get("val_kl"),
                        stats.validationNdcg());
            }
        }

        @Override
        public void onPhase(String phase, int done, int total) {
            System.out.printf(Locale.ROOT, "  %s %d/%d%n", phase.replace('_', '-'), done, total);
        }
    };

    private static void printEpoch(dev.compress.training.trainer.EpochStats stats, int total) {
        if (stats.validationNdcg() != null) {
            System.out.printf(
                    Locale.ROOT,
                    "  epoch %3d/%d  loss %s  rho %s  val nDCG@10 %.4f  (%.2f s + %.2f s val)%n",
                    stats.epoch(),
                    total,
                    stats.losses().containsKey("total")
                            ? String.format(Locale.ROOT, "%.5f", stats.losses().get("total"))
                            : "-",
                    stats.activeTripletRatio() == null
                            ? "-"
                            : String.format(Locale.ROOT, "%.3f", stats.activeTripletRatio()),
                    stats.validationNdcg(),
                    stats.trainSeconds(),
                    stats.validationSeconds());
        }
    }

    /**
     * The mask predictor through {@link TrainingRun}: tau, epoch and default ratio chosen on validation, then the
     * mask table of Learning to Select on the held-out queries (full, cutoff, norm,
     * DIME-PRF, Eclipse-PRF, learned) at each {@code --ratios} value and at the validated ratio, as ratios of the
     * full 384-d baseline of the same run, with the oracle mask as a diagnostic upper bound.
     */
    private static void runQueryMask(
            Map<String, String> opt,
            long seed,
            TrainingData data,
            EvalSet test,
            RetrievalEvaluator retrieval,
            java.time.Duration budget,
            Map<String, Object> report,
            Path out)
            throws Exception {
        List<Double> ratios = Arrays.stream(opt.getOrDefault("ratios", "0.3").split(","))
                .map(x -> Double.parseDouble(x.trim()))
                .toList();
        QueryMaskConfig c =
                QueryMaskConfig.paper(ratios.get(0)).withSeed(seed).withDevice(opt.getOrDefault("device", "auto"));
        if (opt.containsKey("epochs")) {
            c = c.withEpochs(Integer.parseInt(opt.get("epochs")));
        }
        if (opt.containsKey("lr")) {
            c = c.withLearningRate(Double.parseDouble(opt.get("lr")));
        }
        if (opt.containsKey("folds")) {
            c = c.withFolds(Integer.parseInt(opt.get("folds")));
        }
        if (opt.containsKey("taus")) {
            c = c.withTaus(Arrays.stream(opt.get("taus").split(","))
                    .map(x -> Double.parseDouble(x.trim()))
                    .toList());
        }
        TrainingRun.Outcome outcome =
                TrainingRun.run(data, test, new QueryMaskTrainer(c), MASK_PROGRESS, budget, retrieval, ratios);
        Map<String, Object> trainedParams = outcome.report().parameters();
        System.out.printf(
                Locale.ROOT,
                "selected tau %s; grid %s%nvalidated mask %s at ratio %.1f (served when a query names none; paired"
                        + " lower bound against the full query over %s training queries, %s-fold cross-validated:"
                        + " %+.4f; the choice out of fold: %+.4f, lower bound %+.4f)%n",
                trainedParams.get("selectedTau"),
                trainedParams.get("tauGrid"),
                trainedParams.get(QueryMaskTrainer.VALIDATED_MASK),
                outcome.heldOut().validatedRatio(),
                trainedParams.get("crossValidationQueries"),
                trainedParams.get("crossValidationFolds"),
                ((Number) trainedParams.get("validatedRatioLowerBound")).doubleValue(),
                ((Number) trainedParams.get("selectionOutOfFoldGain")).doubleValue(),
                ((Number) trainedParams.get("selectionOutOfFoldLowerBound")).doubleValue());
        List<MaskEvaluation.Row> rows = new ArrayList<>(outcome.heldOut().maskRows());
        // diagnostic upper bound, not a method: the oracle mask from the held-out queries' own judgments
        float[][] oracle = QueryMaskTrainer.oracleImportance(
                test.queries(),
                test.corpus(),
                QueryMaskTrainer.gainsOf(test),
                c.negativePool(),
                c.negativesSampled(),
                seed + 7);
        for (double ratio : ratios) {
            int k = DimensionMasks.keep(data.dim(), ratio);
            rows.add(new MaskEvaluation.Row(
                    "oracle*",
                    ratio,
                    k,
                    new MaskEvaluation(retrieval).evaluate(test, (i, q) -> DimensionMasks.topK(oracle[i], k))));
        }
        Scores full = rows.get(0).scores();
        System.out.printf(
                Locale.ROOT,
                "%n%-12s %6s %5s %8s %9s %8s %12s%n",
                "mask",
                "ratio",
                "kept",
                "nDCG@10",
                "recall@10",
                "ratio",
                "paired diff");
        for (MaskEvaluation.Row r : rows) {
            double[] diff = r.scores().pairedDifference(full);
            System.out.printf(
                    Locale.ROOT,
                    "%-12s %6.2f %5d %8.4f %9.4f %8.3f %+7.4f±%.4f%n",
                    r.mask(),
                    r.ratio(),
                    r.kept(),
                    r.scores().ndcg(),
                    r.scores().recall(),
                    r.scores().ndcg() / full.ndcg(),
                    diff[0],
                    diff[1]);
        }
        System.out.println("oracle* = upper bound from the held-out judgments themselves (diagnostic, not a method)");
        if (out != null) {
            ModelFile.write(outcome.artifact(), out);
            System.out.println("model written to " + out + " (" + Files.size(out) + " bytes)");
        }
        report.put(
                "maskTable",
                rows.stream().map(r -> MaskEvaluation.json(r, full)).toList());
        report.put("validatedRatio", outcome.heldOut().validatedRatio());
        report.put("training", outcome.report());
    }

    /** The CLI's flags under the {@code _train} API's parameter names, so both build trainers alike. */
    static Map<String, Object> parameters(Map<String, String> opt, String method) {
        Map<String, Object> p = new HashMap<>();
        copyInt(opt, "epochs", p, method.equals(SmecTrainer.METHOD) ? "epochs_per_stage" : "epochs");
        copyInt(opt, "patience", p, "patience");
        copyInt(opt, "max-triplets", p, "max_triplets_per_epoch");
        copyInt(opt, "batch-size", p, "batch_size");
        copyReal(opt, "lr", p, "learning_rate");
        copyReal(opt, "preserve", p, "preserve_weight");
        copyReal(opt, "margin", p, "margin");
        copyReal(opt, "alpha", p, "recovery_weight");
        copyReal(opt, "beta", p, "pair_weight");
        if (opt.containsKey("paper")) {
            p.put("recipe", "paper");
        }
        if (opt.containsKey("centred-pca")) {
            p.put("centred", "true");
        }
        if (opt.containsKey("variant")) {
            p.put(
                    "variant",
                    TemperatureConfig.Variant.parse(opt.get("variant")).name().toLowerCase(Locale.ROOT));
        }
        if (opt.containsKey("margin-scale")) {
            p.put("margin_scale", opt.get("margin-scale"));
        }
        if (opt.containsKey("adapter-stage1-only")) {
            p.put("adapter_in_every_stage", "false");
        }
        return p;
    }

    private static void copyInt(Map<String, String> opt, String flag, Map<String, Object> p, String parameter) {
        if (opt.containsKey(flag)) {
            p.put(parameter, Integer.parseInt(opt.get(flag)));
        }
    }

    private static void copyReal(Map<String, String> opt, String flag, Map<String, Object> p, String parameter) {
        if (opt.containsKey(flag)) {
            p.put(parameter, Double.parseDouble(opt.get(flag)));
        }
    }

    private static void printTable(List<ModelEvaluator.Row> rows, Scores baseline) {
        System.out.printf(
                Locale.ROOT,
                "%n%-12s %5s %-15s %8s %9s %8s %12s%n",
                "method",
                "dims",
                "encoding",
                "nDCG@10",
                "recall@10",
                "ratio",
                "paired diff");
        for (ModelEvaluator.Row r : rows) {
            double[] diff = r.scores().pairedDifference(baseline);
            System.out.printf(
                    Locale.ROOT,
                    "%-12s %5d %-15s %8.4f %9.4f %8.3f %+7.4f±%.4f%n",
                    r.method(),
                    r.dims(),
                    r.encoding().label(),
                    r.scores().ndcg(),
                    r.scores().recall(),
                    r.scores().ndcg() / baseline.ndcg(),
                    diff[0],
                    diff[1]);
        }
    }

    private static Path suffixed(Path out, int dims) {
        String name = out.getFileName().toString();
        int dot = name.lastIndexOf('.');
        String stem = dot > 0 ? name.substring(0, dot) : name;
        String ext = dot > 0 ? name.substring(dot) : "";
        return out.resolveSibling(stem + "-" + dims + ext);
    }

    static Map<String, String> parse(String[] args) {
        Map<String, String> m = new HashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (!args[i].startsWith("--")) {
                throw new IllegalArgumentException("unexpected argument '" + args[i] + "'");
            }
            String key = args[i].substring(2);
            if (i + 1 < args.length && !args[i + 1].startsWith("--")) {
                m.put(key, args[++i]);
            } else {
                m.put(key, "true");
            }
        }
        return m;
    }

    static String require(Map<String, String> opt, String key) {
        String v = opt.get(key);
        if (v == null) {
            throw new IllegalArgumentException("missing --" + key);
        }
        return v;
    }
}
