package dev.compress.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Retrieval quality of every method on held-out queries, as ratios of the frozen float baseline of
 * the same run: each method x dims x {float, binary, binary+rescore} on scifact test and nfcorpus
 * dev, and the query-mask table. Each cell is one run of the training CLI
 * ({@code dev.compress.training.cli.TrainCli}) in its own JVM with the method's defaults (as a user's
 * {@code _train} with only method and dims), whose JSON report this section reads; the CLI's logs and
 * reports stay under {@code quality/}.
 *
 * <p>The first table sets every learned model beside PCA at the same dims: the mean over seeds of its
 * ratio to the frozen vectors with the seeds' range, and the paired per-query differences to PCA and to
 * the frozen vectors with a 95% interval (1.96 standard errors of the paired mean, averaged over seeds),
 * and how many seeds shipped trained weights rather than the PCA start.
 *
 * <p>Quick mode: truncation and PCA everywhere, DIVE (64 and 128) and Matryoshka-Adaptor on both data
 * sets with bge-small, seed 0, and the mask table on both data sets with bge. Full mode: every trainer, both
 * embedding models, seeds 0, 1 and 2. {@code -Dbench.quality.methods=truncation,pca} runs only the
 * named methods' cells; {@code -Dbench.quality.seeds=0,1} sets the seeds; {@code -Dbench.quality.jobs=2} runs two
 * cells at once; {@code -Dbench.quality.resume=true} keeps the cells an earlier run with the same {@code
 * BENCH_OUT} finished.
 */
final class QualitySection implements BenchSection {

    private static final List<String> DATASETS = List.of("scifact", "nfcorpus");
    private static final List<String> MODELS = List.of("bge-small-en-v1.5", "all-MiniLM-L6-v2");
    private static final String MASK = "query_mask";
    private static final List<String> CLOSED_FORM = List.of("truncation", "pca");
    private static final String JOBS_PROPERTY = "bench.quality.jobs";
    private static final String RESUME_PROPERTY = "bench.quality.resume";

    /** One CLI run: its arguments after {@code train --dataset --model --method --seed}. */
    private record Cell(String dataset, String model, String method, long seed, List<String> args) {
        String file() {
            return dataset + "-" + model + "-" + method + "-seed" + seed;
        }

        String key() {
            return dataset + "/" + model + "/" + method;
        }
    }

    @Override
    public String name() {
        return "quality";
    }

    private static List<Long> seeds(BenchMode mode) {
        String given = System.getProperty("bench.quality.seeds");
        if (given != null) {
            return List.of(given.split(",")).stream()
                    .map(String::trim)
                    .map(Long::parseLong)
                    .toList();
        }
        return mode.full() ? List.of(0L, 1L, 2L) : List.of(0L);
    }

    private static List<Cell> cells(BenchMode mode) {
        List<Cell> cells = new ArrayList<>();
        for (String dataset : DATASETS) {
            for (String model : MODELS) {
                for (String method : CLOSED_FORM) {
                    cells.add(new Cell(dataset, model, method, 0, List.of("--dims", "32,64,128")));
                }
                if (mode.full() == false && model.startsWith("bge") == false) {
                    continue;
                }
                for (long seed : seeds(mode)) {
                    cells.add(new Cell(dataset, model, "dive", seed, List.of("--dims", "64,128")));
                    cells.add(new Cell(dataset, model, "matryoshka_adaptor", seed, List.of("--dims", "64,128")));
                    cells.add(new Cell(dataset, model, "temperature_mrl", seed, List.of("--dims", "64,128")));
                    if (mode.full()) {
                        cells.add(new Cell(dataset, model, "search_adaptor", seed, List.of("--dims", "64,128,384")));
                        cells.add(new Cell(dataset, model, "smec", seed, List.of("--dims", "64,128")));
                        cells.add(new Cell(dataset, model, MASK, seed, List.of("--ratios", "0.3")));
                    }
                }
                if (mode.full() == false) {
                    cells.add(new Cell(dataset, model, MASK, 0, List.of("--ratios", "0.3")));
                }
            }
        }
        return cells;
    }

    @Override
    public List<ResultTable> run(BenchMode mode) throws Exception {
        Path dir = BenchPaths.output().resolve("quality");
        Files.createDirectories(dir);
        ResultTable methods = new ResultTable(
                "Quality on held-out queries: nDCG@10 as a ratio of the frozen float baseline (same run)",
                List.of(
                        "dataset",
                        "model",
                        "method",
                        "dims",
                        "float",
                        "binary",
                        "binary+rescore",
                        "frozen_float_ndcg@10",
                        "ndcg@10_float",
                        "train_s",
                        "s_per_epoch"));
        ResultTable masks = new ResultTable(
                "Query masks on the frozen vectors, at 30% of dimensions and at the share cross-validation chose on the"
                        + " training queries: nDCG@10 as a ratio of the full query",
                List.of("dataset", "model", "seed", "mask", "kept", "ratio_to_full", "paired_diff", "paired_stderr"));
        ResultTable learned = new ResultTable(
                "Learned against PCA at the same dims: held-out nDCG@10 (float) as a ratio of the frozen float baseline",
                List.of(
                        "dataset",
                        "model",
                        "method",
                        "dims",
                        "seeds",
                        "ratio",
                        "ratio_min",
                        "ratio_max",
                        "pca_ratio",
                        "vs_pca",
                        "vs_pca_ci95",
                        "vs_frozen",
                        "vs_frozen_ci95",
                        "shipped_trained",
                        "train_s"));
        Map<String, List<Map<?, ?>>> learnedReports = new LinkedHashMap<>();
        Map<String, List<Double>> learnedSeconds = new LinkedHashMap<>();
        ObjectMapper json = new ObjectMapper();
        String methodsOnly = System.getProperty("bench.quality.methods");
        List<Cell> cells = cells(mode).stream()
                .filter(c ->
                        methodsOnly == null || List.of(methodsOnly.split(",")).contains(c.method()))
                .toList();
        Map<Cell, Double> wallSeconds = runAll(cells, dir);
        for (Cell cell : cells) {
            Path report = dir.resolve(cell.file() + ".json");
            double seconds = wallSeconds.get(cell);
            Map<?, ?> root = json.readValue(report.toFile(), Map.class);
            if (cell.method().equals(MASK)) {
                for (Object o : (List<?>) root.get("maskTable")) {
                    Map<?, ?> r = (Map<?, ?>) o;
                    Map<String, Object> row = new LinkedHashMap<>();
                    row.put("dataset", cell.dataset());
                    row.put("model", cell.model());
                    row.put("seed", cell.seed());
                    row.put("mask", r.get("mask"));
                    row.put("kept", r.get("kept"));
                    row.put("ratio_to_full", r.get("ratioToFull"));
                    row.put("paired_diff", r.get("pairedDiffToFull"));
                    row.put("paired_stderr", r.get("pairedDiffStdErr"));
                    masks.add(row);
                }
            } else if (cell.seed() != 0) {
                learnedReports
                        .computeIfAbsent(cell.key(), k -> new ArrayList<>())
                        .add(root);
                learnedSeconds
                        .computeIfAbsent(cell.key(), k -> new ArrayList<>())
                        .add(seconds);
            } else {
                if (CLOSED_FORM.contains(cell.method()) == false) {
                    learnedReports
                            .computeIfAbsent(cell.key(), k -> new ArrayList<>())
                            .add(root);
                    learnedSeconds
                            .computeIfAbsent(cell.key(), k -> new ArrayList<>())
                            .add(seconds);
                }
                // truncation and PCA are closed-form: their single report "epoch" is a fit, not an epoch
                Double perEpoch =
                        CLOSED_FORM.contains(cell.method()) ? null : secondsPerEpoch((List<?>) root.get("training"));
                addMethodRows(methods, cell, (List<?>) root.get("table"), perEpoch, seconds);
            }
        }
        learnedReports.forEach((key, reports) -> addLearnedRows(learned, key, reports, learnedSeconds.get(key)));
        learned.note(
                "ratio: mean over seeds (ratio_min..ratio_max across them); vs_pca / vs_frozen: mean paired per-query difference of "
                        + "nDCG@10 to PCA at the same dims / to the frozen vectors, and half the width of its 95% interval; shipped_trained: "
                        + "seeds whose selection shipped trained weights rather than the PCA start; train_s: mean wall time of the CLI run "
                        + "(one model per dims for DIVE, each within the training budget).");
        methods.note(
                "float / binary / binary+rescore: the method's vectors searched exactly as float32, as centred sign bits (Hamming), "
                        + "and as sign bits whose top 100 are reranked with the float query. train_s: wall time of the CLI run "
                        + "(data preparation, training, evaluation); s_per_epoch: mean training time of one epoch, validation excluded.");
        masks.note(
                "Each row's kept dimensions give its share: 115 is 30%; the second set of rows is at the share that 5-fold "
                        + "cross-validation over the training queries chose (none when it chose the full query), and served:<mask> "
                        + "repeats the row of the mask a query that names no ratio gets. "
                        + "oracle* takes its mask from the held-out judgments themselves: an upper bound, not a method.");
        return List.of(learned, methods, masks);
    }

    /** One row per (method, dims): float ratios over the seeds, paired differences to PCA and to frozen. */
    private static void addLearnedRows(ResultTable table, String key, List<Map<?, ?>> reports, List<Double> seconds) {
        String[] parts = key.split("/");
        Map<Integer, List<double[]>> byDims =
                new java.util.TreeMap<>(); // dims -> per seed {ratio, pcaRatio, dPca, sePca, dFrozen, seFrozen}
        Map<Integer, int[]> shipped = new java.util.TreeMap<>(); // dims -> {trained, total}
        for (Map<?, ?> root : reports) {
            double frozen = Double.NaN;
            for (Object o : (List<?>) root.get("table")) {
                Map<?, ?> r = (Map<?, ?>) o;
                if (r.get("method").equals("frozen") && r.get("encoding").equals("float")) {
                    frozen = ((Number) r.get("ndcg@10")).doubleValue();
                }
            }
            for (Object o : (List<?>) root.get("learnedVsPca")) {
                Map<?, ?> v = (Map<?, ?>) o;
                if (v.get("encoding").equals("float") == false) {
                    continue;
                }
                int dims = ((Number) v.get("dims")).intValue();
                Map<?, ?> row = floatRow((List<?>) root.get("table"), (String) v.get("method"), dims);
                byDims.computeIfAbsent(dims, d -> new ArrayList<>()).add(new double[] {
                    ((Number) row.get("ratio_to_frozen")).doubleValue(),
                            ((Number) v.get("pca_ndcg@10")).doubleValue() / frozen,
                    ((Number) v.get("paired_diff_to_pca")).doubleValue(),
                            ((Number) v.get("paired_diff_stderr")).doubleValue(),
                    ((Number) row.get("paired_diff_to_frozen")).doubleValue(),
                            ((Number) row.get("paired_diff_stderr")).doubleValue()
                });
            }
            for (Object t : (List<?>) root.get("training")) {
                Map<?, ?> training = (Map<?, ?>) t;
                boolean trained = shippedTrained((Map<?, ?>) training.get("report"));
                for (Object d : (List<?>) training.get("dims")) {
                    int[] count = shipped.computeIfAbsent(((Number) d).intValue(), x -> new int[2]);
                    if (trained) {
                        count[0]++;
                    }
                    count[1]++;
                }
            }
        }
        for (Map.Entry<Integer, List<double[]>> e : byDims.entrySet()) {
            List<double[]> runs = e.getValue();
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("dataset", parts[0]);
            row.put("model", parts[1]);
            row.put("method", parts[2]);
            row.put("dims", e.getKey());
            row.put("seeds", runs.size());
            row.put("ratio", mean(runs, 0));
            row.put("ratio_min", runs.stream().mapToDouble(r -> r[0]).min().orElse(Double.NaN));
            row.put("ratio_max", runs.stream().mapToDouble(r -> r[0]).max().orElse(Double.NaN));
            row.put("pca_ratio", mean(runs, 1));
            row.put("vs_pca", mean(runs, 2));
            row.put("vs_pca_ci95", 1.96 * mean(runs, 3));
            row.put("vs_frozen", mean(runs, 4));
            row.put("vs_frozen_ci95", 1.96 * mean(runs, 5));
            int[] count = shipped.getOrDefault(e.getKey(), new int[2]);
            row.put("shipped_trained", count[0] + "/" + count[1]);
            row.put(
                    "train_s",
                    seconds.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN));
            table.add(row);
        }
    }

    /**
     * Whether a training report's model holds trained weights rather than its PCA start. SMEC trains stage by
     * stage, each stage deciding between its trained weights and its own start (the previous stages' output), and
     * its report's selection is the last stage's: its model is the PCA start only when no stage shipped trained
     * weights.
     */
    private static boolean shippedTrained(Map<?, ?> report) {
        if (report.get("parameters") instanceof Map<?, ?> parameters
                && parameters.get("stageReports") instanceof List<?> stages) {
            return stages.stream()
                    .anyMatch(stage -> ((Map<?, ?>) stage).get("selection") instanceof Map<?, ?> selection
                            && "trained".equals(selection.get("shipped")));
        }
        Map<?, ?> selection = (Map<?, ?>) report.get("selection");
        return selection != null
                && ((Number) selection.get("shippedEpoch")).intValue()
                        != ((Number) selection.get("startEpoch")).intValue();
    }

    private static double mean(List<double[]> runs, int column) {
        return runs.stream().mapToDouble(r -> r[column]).average().orElse(Double.NaN);
    }

    private static Map<?, ?> floatRow(List<?> rows, String method, int dims) {
        for (Object o : rows) {
            Map<?, ?> r = (Map<?, ?>) o;
            if (r.get("method").equals(method)
                    && ((Number) r.get("dims")).intValue() == dims
                    && r.get("encoding").equals("float")) {
                return r;
            }
        }
        throw new IllegalStateException("no float row for " + method + " at " + dims);
    }

    /**
     * Mean training seconds of one epoch over the report's trainings (one per target dimension for the
     * non-nested methods), epoch 0 (the untrained start) left out; null when the report has none.
     */
    private static Double secondsPerEpoch(List<?> trainings) {
        double sum = 0;
        int epochs = 0;
        for (Object training : trainings == null ? List.of() : trainings) {
            Object report = ((Map<?, ?>) training).get("report");
            for (Object o : (List<?>) ((Map<?, ?>) report).get("epochs")) {
                Map<?, ?> epoch = (Map<?, ?>) o;
                if (((Number) epoch.get("epoch")).intValue() > 0) {
                    sum += ((Number) epoch.get("trainSeconds")).doubleValue();
                    epochs++;
                }
            }
        }
        return epochs == 0 ? null : sum / epochs;
    }

    /** One row per (method, dims) with the three encodings side by side; the frozen rows once per data set and model. */
    private static void addMethodRows(
            ResultTable table, Cell cell, List<?> rows, Double secondsPerEpoch, double seconds) {
        Map<String, Map<String, Object>> byDims = new LinkedHashMap<>();
        double frozen = Double.NaN;
        for (Object o : rows) {
            Map<?, ?> r = (Map<?, ?>) o;
            String method = (String) r.get("method");
            if (method.equals("frozen") && r.get("encoding").equals("float")) {
                frozen = ((Number) r.get("ndcg@10")).doubleValue();
            }
            // the frozen rows once (with truncation), and a learned cell's PCA rows only in the learned-against-PCA
            // table
            boolean ownRow = method.equals(cell.method())
                    || (method.equals("frozen") && cell.method().equals("truncation"));
            if (ownRow == false) {
                continue;
            }
            String key = method + "/" + r.get("dims");
            Map<String, Object> row = byDims.computeIfAbsent(key, k -> {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("dataset", cell.dataset());
                m.put("model", cell.model());
                m.put("method", method);
                m.put("dims", r.get("dims"));
                return m;
            });
            row.put((String) r.get("encoding"), ((Number) r.get("ratio_to_frozen")).doubleValue());
            if (r.get("encoding").equals("float")) {
                row.put("ndcg@10_float", ((Number) r.get("ndcg@10")).doubleValue());
            }
        }
        for (Map<String, Object> row : byDims.values()) {
            row.put("frozen_float_ndcg@10", frozen);
            if (row.get("method").equals("frozen") == false) {
                row.put("train_s", seconds);
                if (secondsPerEpoch != null) {
                    row.put("s_per_epoch", secondsPerEpoch);
                }
            }
            table.add(row);
        }
    }

    /**
     * Runs the cells, as many at a time as {@value #JOBS_PROPERTY} says (default 1), and returns each one's wall
     * time. With {@value #RESUME_PROPERTY}, a cell whose report and wall time a previous run left in {@code dir}
     * is not run again, so that a full run of several hours can be stopped and taken up later.
     */
    private static Map<Cell, Double> runAll(List<Cell> cells, Path dir) throws Exception {
        int jobs = Integer.getInteger(JOBS_PROPERTY, 1);
        boolean resume = Boolean.getBoolean(RESUME_PROPERTY);
        Map<Cell, Future<Double>> running = new LinkedHashMap<>();
        ExecutorService pool = Executors.newFixedThreadPool(jobs);
        try {
            for (Cell cell : cells) {
                running.put(cell, pool.submit(() -> {
                    Path report = dir.resolve(cell.file() + ".json");
                    Path seconds = dir.resolve(cell.file() + ".seconds");
                    if (resume && Files.exists(report) && Files.exists(seconds)) {
                        System.out.println("quality: " + cell.file() + " kept from an earlier run");
                        return Double.parseDouble(Files.readString(seconds).trim());
                    }
                    long start = System.nanoTime();
                    train(cell, report, dir.resolve(cell.file() + ".log"), jobs);
                    double wall = (System.nanoTime() - start) / 1e9;
                    Files.writeString(seconds, Double.toString(wall));
                    return wall;
                }));
            }
            Map<Cell, Double> wall = new LinkedHashMap<>();
            for (Map.Entry<Cell, Future<Double>> e : running.entrySet()) {
                try {
                    wall.put(e.getKey(), e.getValue().get());
                } catch (ExecutionException failed) {
                    throw failed.getCause() instanceof Exception cause ? cause : failed;
                }
            }
            return wall;
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * One cell's CLI run, {@code jobs} of them at once: libtorch's threads default to the cores shared out among
     * them, so that the cells do not compete for the same cores (and each cell's wall time is that of its share).
     */
    private static void train(Cell cell, Path report, Path log, int jobs) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of(
                "-Xmx3g",
                "-Dai.djl.offline=true",
                "-DDJL_CACHE_DIR=" + System.getProperty("DJL_CACHE_DIR", "target/djl-cache"),
                // libtorch's thread count (default: the cores shared out among the cells running at once)
                "-Dai.djl.pytorch.num_threads="
                        + Integer.getInteger(
                                "ai.djl.pytorch.num_threads",
                                Math.max(1, Runtime.getRuntime().availableProcessors() / jobs)),
                "-cp",
                System.getProperty("java.class.path"),
                "dev.compress.training.cli.TrainCli",
                "train",
                "--dataset",
                cell.dataset(),
                "--model",
                cell.model(),
                "--method",
                cell.method(),
                "--centred-bits",
                "--seed",
                Long.toString(cell.seed()),
                "--report",
                report.toString()));
        command.addAll(cell.args());
        ProcessBuilder builder =
                new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().put("OMP_WAIT_POLICY", "PASSIVE");
        System.out.println("quality: " + cell.file() + " " + String.join(" ", cell.args()));
        Process process = builder.start();
        int exit;
        try {
            exit = process.waitFor();
        } finally {
            // a failed cell stops the run, and the cells running beside it are interrupted: their CLIs end too
            process.destroyForcibly();
        }
        if (exit != 0) {
            throw new IOException("TrainCli failed (exit " + exit + ") for " + cell.file() + "; see " + log);
        }
    }
}
