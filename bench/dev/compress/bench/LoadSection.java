package dev.compress.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Ingest, search and training at once on a cluster of real nodes (the distribution with the built
 * plugin zip, as the {@code node} section uses it), for a fixed time: one client bulk-indexes
 * through a {@code compress} pipeline, others search with {@code compressed_knn}, and training jobs
 * run one after another throughout. Counts every request, error and acknowledged document, and
 * checks at the end that the index holds every acknowledged document.
 *
 * <p>Properties: {@code bench.load.seconds} (quick 120, full 600), {@code bench.load.nodes} (2),
 * {@code bench.load.heap} (each node's, 1g), {@code bench.load.searchers} (2).
 */
final class LoadSection implements BenchSection {

    private static final String INDEX = "load";
    private static final String PIPELINE = "load-truncate";
    private static final int RAW_DIM = 64;
    private static final int DIM = 32;
    private static final int BULK = 100;
    private static final int SEED_DOCS = 5_000;
    private static final ObjectMapper JSON = new ObjectMapper();

    @Override
    public String name() {
        return "load";
    }

    @Override
    public List<ResultTable> run(BenchMode mode) throws Exception {
        int seconds = Integer.getInteger("bench.load.seconds", mode.full() ? 600 : 120);
        int nodeCount = Integer.getInteger("bench.load.nodes", 2);
        String heap = System.getProperty("bench.load.heap", "1g");
        int searchers = Integer.getInteger("bench.load.searchers", 2);
        try (LoadCluster cluster = LoadCluster.start(nodeCount, heap)) {
            List<NodeHttp> nodes = cluster.clients();
            NodeHttp setup = nodes.get(0);
            setUp(setup);
            LoadTrainingData.load(setup, new Random(7));
            long end = System.nanoTime() + seconds * 1_000_000_000L;
            LoadCounts ingest = new LoadCounts();
            LoadCounts search = new LoadCounts();
            LoadTrainingJobs training = new LoadTrainingJobs();
            ExecutorService pool = Executors.newFixedThreadPool(2 + searchers);
            List<Future<?>> workers = new ArrayList<>();
            workers.add(pool.submit(() -> ingest(nodes, end, ingest, new Random(11))));
            for (int s = 0; s < searchers; s++) {
                long seed = 100 + s;
                workers.add(pool.submit(() -> search(nodes, end, search, new Random(seed))));
            }
            workers.add(pool.submit(() -> train(setup, end, training)));
            for (Future<?> worker : workers) {
                worker.get();
            }
            pool.shutdown();
            setup.call("POST", "/" + INDEX + "/_refresh", null);
            long inIndex = JSON.readTree(setup.call("GET", "/" + INDEX + "/_count", null))
                    .get("count")
                    .asLong();
            String health = JSON.readTree(setup.call("GET", "/_cluster/health", null))
                    .get("status")
                    .asText();
            return tables(nodeCount, heap, seconds, searchers, ingest, search, training, inIndex, health);
        }
    }

    private static void setUp(NodeHttp node) throws IOException {
        node.call(
                "PUT",
                "/_ingest/pipeline/" + PIPELINE,
                "{\"processors\":[{\"compress\":{\"truncate_to\":" + DIM
                        + ",\"field\":\"raw\",\"target_field\":\"v\"}}]}");
        node.call(
                "PUT",
                "/" + INDEX,
                "{\"settings\":{\"number_of_shards\":2,\"number_of_replicas\":1,\"index.compress\":true},"
                        + "\"mappings\":{\"dynamic\":false,\"_source\":{\"excludes\":[\"raw\"]},\"properties\":{\"v\":"
                        + "{\"type\":\"compressed_vector\",\"dimension\":" + DIM + ",\"encoding\":\"binary\"}}}}");
        node.call("GET", "/_cluster/health/" + INDEX + "?wait_for_status=green&timeout=120s", null);
        // documents to search from the first second on; counted with the acknowledged ones at the end
        Random random = new Random(3);
        for (int from = 0; from < SEED_DOCS; from += BULK) {
            String response =
                    node.call("POST", "/" + INDEX + "/_bulk?pipeline=" + PIPELINE, bulkBody(random, "s" + from));
            if (response.contains("\"errors\":true")) {
                throw new IOException(
                        "seeding the index failed: " + response.substring(0, Math.min(500, response.length())));
            }
        }
        node.call("POST", "/" + INDEX + "/_refresh", null);
    }

    private static String bulkBody(Random random, String idPrefix) {
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < BULK; i++) {
            body.append("{\"index\":{\"_id\":\"")
                    .append(idPrefix)
                    .append('-')
                    .append(i)
                    .append("\"}}\n{\"raw\":")
                    .append(Arrays.toString(gaussian(random, RAW_DIM)))
                    .append("}\n");
        }
        return body.toString();
    }

    /** Bulks through the pipeline, to each node in turn, until {@code end}; failed items are errors. */
    private static Void ingest(List<NodeHttp> nodes, long end, LoadCounts counts, Random random) {
        for (int n = 0; System.nanoTime() < end; n++) {
            String body = bulkBody(random, "b" + n);
            long start = System.nanoTime();
            try {
                JsonNode response = JSON.readTree(
                        nodes.get(n % nodes.size()).call("POST", "/" + INDEX + "/_bulk?pipeline=" + PIPELINE, body));
                int failed = 0;
                for (JsonNode item : response.get("items")) {
                    if (item.get("index").get("status").asInt() >= 300) {
                        failed++;
                    }
                }
                counts.done(System.nanoTime() - start, failed == 0);
                counts.documents(BULK - failed);
            } catch (IOException e) {
                counts.done(System.nanoTime() - start, false);
            }
        }
        return null;
    }

    private static Void search(List<NodeHttp> nodes, long end, LoadCounts counts, Random random) {
        for (int n = 0; System.nanoTime() < end; n++) {
            String body =
                    "{\"size\":10,\"_source\":false,\"query\":{\"compressed_knn\":{\"field\":\"v\",\"k\":10,\"vector\":"
                            + Arrays.toString(gaussian(random, DIM)) + "}}}";
            long start = System.nanoTime();
            try {
                nodes.get(n % nodes.size()).call("POST", "/" + INDEX + "/_search", body);
                counts.done(System.nanoTime() - start, true);
            } catch (IOException e) {
                counts.done(System.nanoTime() - start, false);
            }
        }
        return null;
    }

    /** Training jobs one after another until {@code end}; the job still running then is cancelled. */
    private static Void train(NodeHttp node, long end, LoadTrainingJobs runs) throws InterruptedException {
        for (int n = 0; System.nanoTime() < end; n++) {
            String model = "load-" + n;
            long start = System.nanoTime();
            try {
                node.call("POST", "/_plugins/compress/models/" + model + "/_train", LoadTrainingData.trainBody());
                String state = "training";
                while (state.equals("training") && System.nanoTime() < end) {
                    Thread.sleep(500);
                    state = JSON.readTree(node.call("GET", "/_plugins/compress/models/" + model, null))
                            .get("state")
                            .asText();
                }
                if (state.equals("training")) {
                    node.call("POST", "/_plugins/compress/models/" + model + "/_cancel", null);
                    runs.cutOff();
                } else {
                    runs.ended(System.nanoTime() - start, state.equals("created"));
                }
            } catch (IOException e) {
                runs.ended(System.nanoTime() - start, false);
            }
        }
        return null;
    }

    private static List<ResultTable> tables(
            int nodes,
            String heap,
            int seconds,
            int searchers,
            LoadCounts ingest,
            LoadCounts search,
            LoadTrainingJobs training,
            long inIndex,
            String health) {
        ResultTable requests = new ResultTable(
                "Ingest, search and training at once for " + seconds + " s on " + nodes + " real nodes (heap " + heap
                        + " each), index of 2 shards with 1 replica",
                List.of("workload", "clients", "requests", "errors", "per_s", "p50_ms", "p99_ms"));
        requests.add(ingest.row(
                "ingest: _bulk of " + BULK + " through a compress pipeline (truncate_to " + DIM + " of " + RAW_DIM
                        + "-d), binary field",
                1,
                seconds));
        requests.add(search.row("search: compressed_knn k = 10, rescored (default)", searchers, seconds));
        requests.add(training.row(seconds));
        requests.note("Requests go to the nodes in turn. errors: requests answered with an error status or"
                + " none, and bulks with any failed item; for training, jobs that ended failed. Training"
                + " latencies are whole jobs (dive to 16-d, " + LoadTrainingData.EPOCHS + " epochs on "
                + LoadTrainingData.DOCS + " x " + LoadTrainingData.DIM
                + "-d), from _train to created. Jobs still training"
                + " at the end, cancelled and not counted: " + training.cutOffCount() + ".");
        ResultTable documents = new ResultTable(
                "Documents after the load run", List.of("seeded", "acknowledged", "in_index", "missing", "health"));
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("seeded", SEED_DOCS);
        row.put("acknowledged", ingest.documents());
        row.put("in_index", inIndex);
        row.put("missing", SEED_DOCS + ingest.documents() - inIndex);
        row.put("health", health);
        documents.add(row);
        documents.note("missing: seeded plus acknowledged documents not found by _count after a refresh.");
        return List.of(requests, documents);
    }

    private static float[] gaussian(Random random, int dims) {
        float[] v = new float[dims];
        for (int j = 0; j < dims; j++) {
            v[j] = (float) random.nextGaussian();
        }
        return v;
    }
}
