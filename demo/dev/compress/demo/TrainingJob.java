package dev.compress.demo;

import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Trains a model through {@code POST _plugins/compress/models/{id}/_train} and follows it by polling
 * {@code GET _plugins/compress/models/{id}} until it is {@code created} (or {@code failed}).
 */
final class TrainingJob {

    private static final Duration POLL = Duration.ofSeconds(1);
    private static final Duration TIMEOUT = Duration.ofMinutes(30);

    private TrainingJob() {}

    /**
     * The training request. The cluster holds only the data set's training judgments; the job carves
     * validation (early stopping) and its own test slice from their queries, so the data set's held-out
     * split stays unseen by the cluster.
     */
    static Map<String, Object> request(TrainingIndices indices, DemoOptions options) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("method", options.method());
        body.put("corpus", Map.of("index", indices.corpus, "vector_field", "vector"));
        body.put("queries", Map.of("index", indices.queries, "id_field", "query_id", "vector_field", "vector"));
        body.put(
                "judgments",
                Map.of(
                        "index",
                        indices.judgments,
                        "query_field",
                        "query_id",
                        "doc_field",
                        "doc_id",
                        "rating_field",
                        "rating"));
        body.put("dimensions", options.dims());
        Map<String, Object> parameters = new LinkedHashMap<>();
        options.trainParameters().forEach((name, value) -> parameters.put(name, jsonValue(value)));
        body.put("parameters", parameters);
        body.put("split", Map.of("test_fraction", 0.1, "validation_fraction", 0.1, "seed", 0));
        body.put("description", "./compress demo: " + options.dataset().name() + " / " + options.model());
        return body;
    }

    /** PCA at the same dimensions, from the same indices: the unsupervised start every learned row is set beside. */
    static Map<String, Object> pcaRequest(TrainingIndices indices, DemoOptions options) {
        Map<String, Object> body = request(indices, options);
        body.put("method", "pca");
        body.put("parameters", Map.of());
        body.put("description", "./compress demo: PCA beside " + options.method());
        return body;
    }

    /**
     * The query-mask predictor (Learning to Select: Query-Aware Adaptive Dimension Selection for Dense Retrieval) on the raw vectors' own space, judged on the same carved
     * split; its tau comes from the validation grid inside the job.
     */
    static Map<String, Object> maskRequest(TrainingIndices indices, DemoOptions options) {
        Map<String, Object> body = new LinkedHashMap<>(request(indices, options));
        body.remove("dimensions");
        body.put("method", "query_mask");
        body.put("parameters", Map.of("ratio", CompressedIndex.MASK_RATIO));
        return body;
    }

    /**
     * Starts the job, shows its latest epoch and its phase after the epochs as they come, and returns
     * the final model document.
     */
    @SuppressWarnings("unchecked")
    static Map<String, Object> run(JsonRest rest, String modelId, Map<String, Object> request, ProgressDisplay progress)
            throws IOException, InterruptedException {
        Map<String, Object> started = rest.call("POST", "/_plugins/compress/models/" + modelId + "/_train", request);
        progress.step(
                "train",
                "model [" + modelId + "] " + started.get("state") + " on node [" + started.get("node") + "]: "
                        + request.get("method")
                        + (request.containsKey("dimensions")
                                ? " to " + request.get("dimensions") + " dims"
                                : " (scores every input dimension)")
                        + ", parameters " + request.get("parameters"));
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        int shown = 0;
        Map<String, Object> shownPhase = null;
        while (System.nanoTime() < deadline) {
            Map<String, Object> model;
            try {
                model = rest.call("GET", "/_plugins/compress/models/" + modelId, null);
            } catch (JsonRest.StatusException e) {
                if (e.status() != 429 && e.status() != 503) {
                    throw e;
                }
                // a busy node (circuit breaker, shard not ready) answers again later
                progress.status("train", "node busy (" + e.status() + "), polling again");
                Thread.sleep(POLL.toMillis());
                continue;
            }
            Map<String, Object> p = (Map<String, Object>) model.get("progress");
            List<Map<String, Object>> history =
                    p == null ? List.of() : (List<Map<String, Object>>) p.getOrDefault("history", List.of());
            if (shown < history.size()) {
                shown = history.size();
                progress.status("train", epochLine(history.get(shown - 1), p));
            }
            Map<String, Object> phase = p == null ? null : (Map<String, Object>) p.get("phase");
            if (phase != null && phase.equals(shownPhase) == false) {
                shownPhase = phase;
                progress.status("train", phaseLine(phase));
            }
            String state = (String) model.get("state");
            if ("created".equals(state)) {
                progress.step(
                        "train",
                        "model [" + modelId + "] created"
                                + (history.isEmpty() ? "" : "; last " + epochLine(history.get(history.size() - 1), p))
                                + (phase == null ? "" : "; " + phaseLine(phase)));
                return model;
            }
            if ("failed".equals(state)) {
                throw new IOException("training model [" + modelId + "] failed: " + model.get("error"));
            }
            Thread.sleep(POLL.toMillis());
        }
        throw new IOException("model [" + modelId + "] still not created after " + TIMEOUT);
    }

    /** A command-line value as JSON: numbers as numbers (the API rejects "12"), anything else as text. */
    static Object jsonValue(String value) {
        if (value.matches("-?\\d+")) {
            return Long.parseLong(value);
        }
        if (value.matches("-?(\\d+\\.?\\d*|\\.\\d+)([eE][-+]?\\d+)?")) {
            return Double.parseDouble(value);
        }
        return value;
    }

    /**
     * The latest epoch's figures after the job's count of trained epochs ({@code epochs_done} of {@code
     * total_epochs}): a trainer's own epoch numbers may also count untrained starts.
     */
    static String epochLine(Map<String, Object> epoch, Map<String, Object> progress) {
        StringBuilder line =
                new StringBuilder("epoch " + progress.get("epochs_done") + "/" + progress.get("total_epochs"));
        append(line, "loss", epoch.get("loss"));
        append(line, "rho", epoch.get("active_triplet_ratio"));
        append(line, "val nDCG@10", epoch.get("validation_ndcg@10"));
        return line.toString();
    }

    /** A phase after the epochs, such as {@code cross_validation 3/20}. */
    static String phaseLine(Map<String, Object> phase) {
        return String.valueOf(phase.get("name")).replace('_', '-') + " " + phase.get("done") + "/" + phase.get("total");
    }

    private static void append(StringBuilder line, String name, Object value) {
        if (value instanceof Number n) {
            line.append("  ").append(name).append(' ').append(String.format("%.4f", n.doubleValue()));
        }
    }
}
