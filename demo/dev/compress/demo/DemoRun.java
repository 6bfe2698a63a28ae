package dev.compress.demo;

import dev.compress.demo.report.DemoResults;
import dev.compress.demo.report.HtmlReport;
import dev.compress.demo.report.ResultRow;
import dev.compress.demo.report.ResultsTable;
import dev.compress.demo.report.TrainingEpoch;
import dev.compress.harness.RealNode;
import dev.compress.training.data.EmbeddedDataset;
import dev.compress.training.data.EvalSet;
import dev.compress.training.data.Qrels;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.opensearch.client.RestClient;

/**
 * The main job, phase by phase: vectors, node, training indices, {@code _train}, the {@code compress}
 * pipeline and the compressed index, the held-out queries through every configuration, the table and
 * the report. The node is stopped whatever happens.
 */
final class DemoRun {

    private final DemoOptions options;
    private final ProgressDisplay progress;
    private final Map<String, Double> phases = new LinkedHashMap<>();
    private double phaseStart;

    DemoRun(DemoOptions options, ProgressDisplay progress) {
        this.options = options;
        this.progress = progress;
    }

    void run() throws Exception {
        String dataset = options.dataset().name();
        VectorSource source = VectorSource.choose(options);
        progress.step("data", dataset + " / " + options.model() + ": " + source.describe(options));
        EmbeddedDataset data = source.load(options);
        Qrels train = data.beir().qrels(options.dataset().trainSplit());
        EvalSet heldOut = data.evalSet(options.dataset().heldOutSplit());
        progress.step(
                "data",
                String.format(
                        "%,d documents, %,d training queries, %,d held-out queries (%s split)",
                        data.corpus().size(),
                        train.queryIds().size(),
                        heldOut.queries().size(),
                        options.dataset().heldOutSplit()));
        endPhase("read vectors and judgments");

        RealNode node = DemoNode.start(options.build(), options.heap());
        try {
            progress.step(
                    "node",
                    "OpenSearch 3.6.0 with the plugin on 127.0.0.1:" + node.httpPort() + ", log " + node.logFile());
            endPhase("install and start the node");
            List<ResultRow> rows = new ArrayList<>();
            Map<String, Object> model;
            try (RestClient client = JsonRest.client(node.httpPort())) {
                model = runOnNode(new JsonRest(client), data, train, heldOut, rows);
            }
            Files.createDirectories(options.outDir());
            progress.step("stop", "stopping the node");
            node.stop();
            endPhase("stop the node");
            report(data, heldOut, model, rows);
        } finally {
            node.stop();
        }
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> runOnNode(
            JsonRest rest, EmbeddedDataset data, Qrels train, EvalSet heldOut, List<ResultRow> rows) throws Exception {
        String dataset = options.dataset().name();
        TrainingIndices indices = new TrainingIndices(dataset);
        int judgments = indices.load(rest, data, train);
        progress.step(
                "load",
                String.format(
                        "indices %s (%,d docs), %s (%,d queries), %s (%,d judgments)",
                        indices.corpus,
                        data.corpus().size(),
                        indices.queries,
                        train.queryIds().size(),
                        indices.judgments,
                        judgments));
        endPhase("load corpus, queries and training judgments");

        String modelId = "demo-" + dataset + "-" + options.method() + "-" + options.dims();
        Map<String, Object> model = TrainingJob.run(rest, modelId, TrainingJob.request(indices, options), progress);
        endPhase("train (" + options.method() + ")");
        // PCA at the same dims beside the learned model, unless PCA is the method asked for
        String pcaModelId = null;
        if (options.method().equals("pca") == false) {
            pcaModelId = "demo-" + dataset + "-pca-" + options.dims();
            TrainingJob.run(rest, pcaModelId, TrainingJob.pcaRequest(indices, options), progress);
            endPhase("train (pca)");
        }
        String maskModelId = "demo-" + dataset + "-query_mask";
        TrainingJob.run(rest, maskModelId, TrainingJob.maskRequest(indices, options), progress);
        endPhase("train (query_mask)");

        CompressedIndex compressed = new CompressedIndex(dataset);
        compressed.create(rest, modelId, pcaModelId, data.dim(), options.dims());
        int indexed = compressed.index(rest, data.corpus(), progress);
        progress.step(
                "ingest",
                String.format(
                        "%,d documents through pipeline [%s] into %s", indexed, compressed.pipeline, compressed.index));
        endPhase("ingest through the compress pipeline");

        List<SearchConfiguration> configurations = compressed.configurations(
                indices.corpus,
                data.corpus().size(),
                data.dim(),
                options.method(),
                modelId,
                options.dims(),
                maskModelId,
                pcaModelId);
        ConfigurationResult baseline = null;
        for (SearchConfiguration config : configurations) {
            progress.status("search", config.label());
            ConfigurationResult result = HeldOutSearch.run(rest, config, heldOut);
            baseline = baseline == null ? result : baseline;
            rows.add(row(result, baseline));
            progress.step(
                    "search",
                    String.format(
                            "%-40s nDCG@10 %.4f  recall@10 %.4f  (%d queries, %.1f s)",
                            config.label(),
                            result.meanNdcg(),
                            result.meanRecall(),
                            heldOut.queries().size(),
                            result.seconds()));
        }
        endPhase("search the held-out queries");
        return model;
    }

    private static ResultRow row(ConfigurationResult r, ConfigurationResult baseline) {
        double[] paired = r.pairedNdcgDifference(baseline);
        return new ResultRow(
                r.config().label(),
                r.config().searchBytes(),
                r.config().diskBytes(),
                r.meanNdcg(),
                r.meanRecall(),
                r.meanNdcg() / baseline.meanNdcg(),
                r.meanRecall() / baseline.meanRecall(),
                paired[0],
                paired[1],
                r.seconds(),
                r.p50Millis());
    }

    @SuppressWarnings("unchecked")
    private void report(EmbeddedDataset data, EvalSet heldOut, Map<String, Object> model, List<ResultRow> rows)
            throws IOException {
        Map<String, Object> p = (Map<String, Object>) model.getOrDefault("progress", Map.of());
        List<TrainingEpoch> curves =
                TrainingEpoch.fromHistory((List<Map<String, Object>>) p.getOrDefault("history", List.of()));
        DemoResults results = new DemoResults(
                "Embedding compression on " + data.name() + " (" + data.model() + ")",
                data.name() + " " + options.dataset().heldOutSplit() + " split, "
                        + heldOut.queries().size() + " queries the cluster never saw",
                options.method() + " " + data.dim() + " -> " + options.dims() + " dims, " + epochs(curves) + " epochs, "
                        + (options.trainParameters().isEmpty()
                                ? "default parameters"
                                : "parameters " + options.trainParameters()),
                rows,
                curves,
                phases,
                progress.elapsedSeconds(),
                Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
        Path html = options.outDir().resolve("report.html");
        Files.writeString(html, HtmlReport.render(results));
        Files.writeString(
                options.outDir().resolve("results.json"),
                JsonRest.JSON.writerWithDefaultPrettyPrinter().writeValueAsString(results));
        progress.print("\n" + ResultsTable.render(rows) + "\n");
        progress.step("report", html.toAbsolutePath().normalize() + " (and results.json)");
        progress.step(
                "done",
                String.format(
                        "total wall time %.1f s (%.1f min)",
                        progress.elapsedSeconds(), progress.elapsedSeconds() / 60));
    }

    /** Epochs trained: the history may start with epoch 0, the validation of the untrained model. */
    private static int epochs(List<TrainingEpoch> curves) {
        return curves.isEmpty() ? 0 : curves.get(curves.size() - 1).epoch();
    }

    private void endPhase(String name) {
        double now = progress.elapsedSeconds();
        phases.put(name, now - phaseStart);
        phaseStart = now;
    }
}
