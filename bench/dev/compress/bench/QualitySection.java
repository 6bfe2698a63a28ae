package dev.compress.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Retrieval quality of every method on held-out queries, as ratios of the frozen float baseline of
 * the same run: each method x dims x {float, binary, binary+rescore} on scifact test and nfcorpus
 * dev, both embedding models, and the query-mask table. Each cell is one run of the training CLI
 * ({@code dev.compress.training.cli.TrainCli}) in its own JVM, whose JSON report this section reads;
 * the CLI's logs and reports stay under {@code quality/}.
 *
 * <p>Quick mode runs the training-free methods (truncation, PCA) everywhere, a 10-epoch DIVE at 64-d
 * on scifact, and the mask table on scifact with bge; full mode runs every trainer with the caps of
 * {@code bench/trainers.sh} on nfcorpus. {@code -Dbench.quality.methods=truncation,pca} runs only
 * the named methods' cells.
 */
final class QualitySection implements BenchSection {

  private static final List<String> DATASETS = List.of("scifact", "nfcorpus");
  private static final List<String> MODELS = List.of("bge-small-en-v1.5", "all-MiniLM-L6-v2");
  private static final String MASK = "query_mask";
  private static final List<String> CLOSED_FORM = List.of("truncation", "pca");

  /** One CLI run: its arguments after {@code train --dataset --model}. */
  private record Cell(String dataset, String model, String method, List<String> args) {
    String file() {
      return dataset + "-" + model + "-" + method;
    }
  }

  @Override
  public String name() {
    return "quality";
  }

  private static List<Cell> cells(BenchMode mode) {
    List<Cell> cells = new ArrayList<>();
    for (String dataset : DATASETS) {
      boolean nf = dataset.equals("nfcorpus");
      List<String> cap = nf ? List.of("--max-triplets", "4096", "--epochs", "12", "--patience", "4") : List.of();
      for (String model : MODELS) {
        for (String method : CLOSED_FORM) {
          cells.add(new Cell(dataset, model, method, List.of("--dims", "32,64,128")));
        }
        if (mode.full()) {
          cells.add(new Cell(dataset, model, "dive", concat(List.of("--dims", "32,64,128"), nf ? List.of("--epochs", "6") : List.of())));
          cells.add(new Cell(dataset, model, "matryoshka_adaptor", concat(List.of("--dims", "64,128"), cap)));
          cells.add(new Cell(dataset, model, "temperature_mrl", concat(List.of("--dims", "64,128"), cap)));
          cells.add(new Cell(dataset, model, "search_adaptor", concat(List.of("--dims", "64,128,384"), cap)));
          cells.add(
              new Cell(dataset, model, "smec", concat(List.of("--dims", "64"), nf ? List.of("--max-triplets", "4096", "--epochs", "5", "--patience", "3") : List.of("--epochs", "10"))));
          cells.add(new Cell(dataset, model, MASK, List.of("--ratios", "0.3")));
        } else if (dataset.equals("scifact")) {
          cells.add(new Cell(dataset, model, "dive", List.of("--dims", "64", "--epochs", "10")));
          if (model.startsWith("bge")) {
            cells.add(new Cell(dataset, model, MASK, List.of("--ratios", "0.3", "--epochs", "10")));
          }
        }
      }
    }
    return cells;
  }

  private static List<String> concat(List<String> a, List<String> b) {
    List<String> out = new ArrayList<>(a);
    out.addAll(b);
    return out;
  }

  @Override
  public List<ResultTable> run(BenchMode mode) throws Exception {
    Path dir = BenchPaths.output().resolve("quality");
    Files.createDirectories(dir);
    ResultTable methods =
        new ResultTable(
            "Quality on held-out queries: nDCG@10 as a ratio of the frozen float baseline (same run)",
            List.of(
                "dataset", "model", "method", "dims", "float", "binary", "binary+rescore", "frozen_float_ndcg@10", "ndcg@10_float",
                "train_s", "s_per_epoch"));
    ResultTable masks =
        new ResultTable(
            "Query masks at 30% of dimensions on the frozen vectors: nDCG@10 as a ratio of the full query",
            List.of("dataset", "model", "mask", "kept", "ratio_to_full", "paired_diff", "paired_stderr"));
    ObjectMapper json = new ObjectMapper();
    String methodsOnly = System.getProperty("bench.quality.methods");
    for (Cell cell : cells(mode)) {
      if (methodsOnly != null && List.of(methodsOnly.split(",")).contains(cell.method()) == false) {
        continue;
      }
      Path report = dir.resolve(cell.file() + ".json");
      long start = System.nanoTime();
      train(cell, report, dir.resolve(cell.file() + ".log"));
      double seconds = (System.nanoTime() - start) / 1e9;
      Map<?, ?> root = json.readValue(report.toFile(), Map.class);
      if (cell.method().equals(MASK)) {
        for (Object o : (List<?>) root.get("maskTable")) {
          Map<?, ?> r = (Map<?, ?>) o;
          Map<String, Object> row = new LinkedHashMap<>();
          row.put("dataset", cell.dataset());
          row.put("model", cell.model());
          row.put("mask", r.get("mask"));
          row.put("kept", r.get("kept"));
          row.put("ratio_to_full", r.get("ratioToFull"));
          row.put("paired_diff", r.get("pairedDiffToFull"));
          row.put("paired_stderr", r.get("pairedDiffStdErr"));
          masks.add(row);
        }
      } else {
        // truncation and PCA are closed-form: their single report "epoch" is a fit, not an epoch
        Double perEpoch = CLOSED_FORM.contains(cell.method()) ? null : secondsPerEpoch((List<?>) root.get("training"));
        addMethodRows(methods, cell, (List<?>) root.get("table"), perEpoch, seconds);
      }
    }
    methods.note(
        "float / binary / binary+rescore: the method's vectors searched exactly as float32, as centred sign bits (Hamming), "
            + "and as sign bits whose top 100 are reranked with the float query. train_s: wall time of the CLI run "
            + "(data preparation, training, evaluation); s_per_epoch: mean training time of one epoch, validation excluded.");
    return List.of(methods, masks);
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
  private static void addMethodRows(ResultTable table, Cell cell, List<?> rows, Double secondsPerEpoch, double seconds) {
    Map<String, Map<String, Object>> byDims = new LinkedHashMap<>();
    double frozen = Double.NaN;
    for (Object o : rows) {
      Map<?, ?> r = (Map<?, ?>) o;
      String method = (String) r.get("method");
      if (method.equals("frozen") && r.get("encoding").equals("float")) {
        frozen = ((Number) r.get("ndcg@10")).doubleValue();
      }
      if (method.equals("frozen") && cell.method().equals("truncation") == false) {
        continue;
      }
      String key = method + "/" + r.get("dims");
      Map<String, Object> row =
          byDims.computeIfAbsent(
              key,
              k -> {
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

  private static void train(Cell cell, Path report, Path log) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(
        List.of(
            "-Xmx3g",
            "-Dai.djl.offline=true",
            "-DDJL_CACHE_DIR=" + System.getProperty("DJL_CACHE_DIR", "target/djl-cache"),
            // libtorch's thread count (default: every core); one leaves a core to a benchmark run beside this one
            "-Dai.djl.pytorch.num_threads=" + Integer.getInteger("ai.djl.pytorch.num_threads", Runtime.getRuntime().availableProcessors()),
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
            "--report",
            report.toString()));
    command.addAll(cell.args());
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
    builder.environment().put("OMP_WAIT_POLICY", "PASSIVE");
    System.out.println("quality: " + cell.file() + " " + String.join(" ", cell.args()));
    int exit = builder.start().waitFor();
    if (exit != 0) {
      throw new IOException("TrainCli failed (exit " + exit + ") for " + cell.file() + "; see " + log);
    }
  }
}
