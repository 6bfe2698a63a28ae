package dev.compress.training.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.compress.training.data.DataDirectory;
import dev.compress.training.data.EmbeddedDataset;
import dev.compress.training.data.EvalSet;
import dev.compress.training.data.Qrels;
import dev.compress.training.eval.RetrievalEvaluator;
import dev.compress.training.inference.CpuEncoders;
import dev.compress.training.inference.Encoder;
import dev.compress.training.mask.MaskEvaluation;
import dev.compress.training.mask.MaskTable;
import dev.compress.training.sampling.QuerySplit;
import dev.compress.training.sampling.TrainingData;
import dev.compress.training.trainer.QueryMaskConfig;
import dev.compress.training.trainer.QueryMaskTrainer;
import dev.compress.training.trainer.TrainedModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code TrainCli mask-table}: Table 1 of Learning to Select in one command. For each data set and embedding model,
 * trains one mask predictor per seed on the training queries (the seed also draws the validation slice
 * that picks tau and the epoch), then scores cutoff, norm, DIME-PRF, Eclipse-PRF and learned masks on the
 * held-out queries (scifact test, nfcorpus dev) at {@code --ratio} and over a {@code --step} sweep.
 * <pre>
 * mask-table [--datasets scifact,nfcorpus] [--models bge-small-en-v1.5,all-MiniLM-L6-v2] [--seeds 0,1,2]
 *            [--ratio 0.3] [--step 0.02] [--epochs N] [--taus T,...] [--out table.md] [--report table.json] [--data DIR]
 * </pre>
 */
final class MaskTableCommand {

    private MaskTableCommand() {}

    static void run(Map<String, String> opt) throws Exception {
        Path dataDir = opt.containsKey("data") ? Path.of(opt.get("data")) : DataDirectory.resolve();
        List<String> datasets = list(opt.getOrDefault("datasets", "scifact,nfcorpus"));
        List<String> models = list(opt.getOrDefault("models", "bge-small-en-v1.5,all-MiniLM-L6-v2"));
        List<Long> seeds = list(opt.getOrDefault("seeds", "0,1,2")).stream()
                .map(Long::parseLong)
                .toList();
        double ratio = Double.parseDouble(opt.getOrDefault("ratio", "0.3"));
        double step = Double.parseDouble(opt.getOrDefault("step", "0.02"));
        QueryMaskConfig base = QueryMaskConfig.paper(ratio).withDevice(opt.getOrDefault("device", "auto"));
        if (opt.containsKey("epochs")) {
            base = base.withEpochs(Integer.parseInt(opt.get("epochs")));
        }
        if (opt.containsKey("taus")) {
            base = base.withTaus(
                    list(opt.get("taus")).stream().map(Double::parseDouble).toList());
        }
        MaskEvaluation evaluation = new MaskEvaluation(RetrievalEvaluator.standard());
        List<MaskTable.Result> results = new ArrayList<>();
        List<Map<String, Object>> trainings = new ArrayList<>();
        for (String dataset : datasets) {
            for (String model : models) {
                EmbeddedDataset ds = EmbeddedDataset.load(dataDir, dataset, model);
                String testSplit = dataset.equals("nfcorpus") ? "dev" : "test";
                Qrels trainQrels = ds.beir().qrels("train");
                EvalSet test = ds.evalSet(testSplit);
                List<Encoder> predictors = new ArrayList<>();
                for (long seed : seeds) {
                    QuerySplit split =
                            QuerySplit.ofDatasetSplits(trainQrels, ds.beir().qrels(testSplit), 0.1, seed);
                    TrainingData data = TrainingData.build(ds, trainQrels, split, 1);
                    TrainedModel trained = new QueryMaskTrainer(base.withSeed(seed)).train(data, (stats, total) -> {});
                    Map<String, Object> p = trained.report().parameters();
                    System.out.printf(
                            Locale.ROOT,
                            "%s / %s seed %d: %d train, %d validation queries; tau %s; grid %s%n",
                            dataset,
                            model,
                            seed,
                            split.train().size(),
                            split.validation().size(),
                            p.get("selectedTau"),
                            p.get("tauGrid"));
                    trainings.add(Map.of(
                            "dataset",
                            dataset,
                            "model",
                            model,
                            "seed",
                            seed,
                            "selectedTau",
                            p.get("selectedTau"),
                            "tauGrid",
                            p.get("tauGrid")));
                    predictors.add(CpuEncoders.forServing(trained.artifact(), ds.dim()));
                }
                MaskTable.Result r = MaskTable.build(
                        dataset,
                        model,
                        testSplit,
                        test,
                        evaluation,
                        predictors,
                        ratio,
                        step,
                        MaskEvaluation.Prf.defaults());
                predictors.forEach(Encoder::close);
                results.add(r);
                System.out.println(MaskTable.markdown(List.of(r)));
            }
        }
        String table = MaskTable.markdown(results);
        System.out.println(table);
        if (opt.containsKey("out")) {
            Files.writeString(Path.of(opt.get("out")), table);
        }
        if (opt.containsKey("report")) {
            Map<String, Object> report = new LinkedHashMap<>();
            report.put("config", base.asMap());
            report.put("seeds", seeds);
            report.put("step", step);
            report.put("tables", results.stream().map(MaskTable.Result::json).toList());
            report.put("training", trainings);
            new ObjectMapper()
                    .enable(SerializationFeature.INDENT_OUTPUT)
                    .writeValue(Path.of(opt.get("report")).toFile(), report);
        }
    }

    private static List<String> list(String csv) {
        return Arrays.stream(csv.split(","))
                .map(String::trim)
                .filter(s -> !s.isEmpty())
                .toList();
    }
}
