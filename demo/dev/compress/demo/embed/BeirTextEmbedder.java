package dev.compress.demo.embed;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.compress.training.data.DataDirectory;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.IntStream;

/**
 * Embeds a BEIR data set's corpus and queries into a cache folder laid out exactly like
 * {@code ../shared/data/embeddings} ({@code <cache>/<dataset>/<model>/{corpus,queries}.{f32,ids},
 * meta.json}), so the existing readers ({@code VectorFiles}, {@code EmbeddedDataset}) load it.
 * Work already cached is skipped: a finished file is kept when its ids match the data set, an
 * interrupted one resumes from its last written chunk. {@code meta.json} is written last and
 * marks the folder complete.
 */
public final class BeirTextEmbedder {

    /** Inputs per onnxruntime call. */
    public static final int DEFAULT_BATCH_SIZE = 32;
    /** Rows written (and resumable) at once; sorted by length inside so a batch carries little padding. */
    static final int CHUNK_ROWS = 512;

    private final SentenceModel model;
    private final int threads;
    private final int batchSize;
    private OnnxTextEncoder encoder;

    public BeirTextEmbedder(SentenceModel model, int threads, int batchSize) {
        if (threads < 1 || batchSize < 1) {
            throw new IllegalArgumentException("threads " + threads + " and batch size " + batchSize + " must be >= 1");
        }
        this.model = model;
        this.threads = threads;
        this.batchSize = batchSize;
    }

    /**
     * The {@code model} vectors of {@code <beirDir>/<dataset>}, embedding what is not in {@code cacheDir}
     * yet with all cores.
     *
     * @param beirDir the folder holding BEIR data sets, e.g. {@code ../shared/data/beir}
     * @return {@code <cacheDir>/<dataset>/<model>}, holding the four files and meta.json
     */
    public static Path ensureEmbeddings(String dataset, SentenceModel model, Path beirDir, Path cacheDir)
            throws IOException {
        return new BeirTextEmbedder(model, Runtime.getRuntime().availableProcessors(), DEFAULT_BATCH_SIZE)
                .embed(dataset, beirDir, cacheDir);
    }

    /** Embeds (or finds cached) corpus and queries of {@code <beirDir>/<dataset>}; returns the model folder. */
    public Path embed(String dataset, Path beirDir, Path cacheDir) throws IOException {
        Path source = beirDir.resolve(dataset);
        Path out = cacheDir.resolve(dataset).resolve(model.directoryName());
        BeirTexts corpus = BeirTexts.corpus(source);
        BeirTexts queries = BeirTexts.queries(source);
        Path meta = out.resolve("meta.json");
        boolean corpusDone = ResumableVectorFile.isComplete(out, "corpus", corpus.ids(), SentenceModel.DIMENSION);
        boolean queriesDone = ResumableVectorFile.isComplete(out, "queries", queries.ids(), SentenceModel.DIMENSION);
        if (corpusDone && queriesDone && Files.exists(meta)) {
            return out;
        }
        Files.deleteIfExists(meta);
        try {
            double corpusRate = corpusDone ? Double.NaN : embedFile(dataset + " corpus", corpus, false, out, "corpus");
            double queryRate =
                    queriesDone ? Double.NaN : embedFile(dataset + " queries", queries, true, out, "queries");
            writeMeta(meta, dataset, corpus.size(), queries.size(), corpusRate, queryRate);
        } finally {
            if (encoder != null) {
                encoder.close();
                encoder = null;
            }
        }
        return out;
    }

    /** Embeds the rows of one file not written yet; returns the rate of this run (rows/s). */
    private double embedFile(String label, BeirTexts texts, boolean queries, Path out, String name) throws IOException {
        try (ResumableVectorFile file = ResumableVectorFile.open(out, name, texts.ids(), SentenceModel.DIMENSION)) {
            OnnxTextEncoder enc = encoder(); // loaded before the clock starts, so the rate is the encoder's
            int resumedAt = file.rows();
            long cpuStart = processCpuNanos();
            ProgressBar progress = ProgressBar.onStderr(label, texts.size(), resumedAt);
            while (file.rows() < texts.size()) {
                int from = file.rows();
                int to = Math.min(texts.size(), from + CHUNK_ROWS);
                file.append(embedChunk(enc, texts.texts().subList(from, to), queries, progress));
            }
            progress.finish();
            double rate = progress.rate();
            double cpuSeconds = (processCpuNanos() - cpuStart) / 1e9;
            int embedded = texts.size() - resumedAt;
            // CPU time makes runs on a shared, busy machine comparable: wall-clock rate depends on the neighbours
            System.err.printf(
                    Locale.ROOT,
                    "%s: %,d embedded at %.1f docs/s, %.0f CPU-s (%.2f docs per CPU-second)%n",
                    label,
                    embedded,
                    rate,
                    cpuSeconds,
                    embedded / cpuSeconds);
            file.complete();
            return rate;
        }
    }

    /** Embeds texts longest first in batches, so each batch pads to a similar length; returns rows in input order. */
    private float[][] embedChunk(OnnxTextEncoder enc, List<String> texts, boolean queries, ProgressBar progress)
            throws IOException {
        int[] order = IntStream.range(0, texts.size())
                .boxed()
                .sorted(Comparator.comparingInt((Integer i) -> texts.get(i).length())
                        .reversed())
                .mapToInt(Integer::intValue)
                .toArray();
        float[][] rows = new float[texts.size()][];
        for (int start = 0; start < order.length; start += batchSize) {
            int end = Math.min(order.length, start + batchSize);
            List<String> batch = new ArrayList<>(end - start);
            for (int k = start; k < end; k++) {
                batch.add(texts.get(order[k]));
            }
            float[][] vectors = queries ? enc.embedQueries(batch) : enc.embedDocuments(batch);
            for (int k = start; k < end; k++) {
                rows[order[k]] = vectors[k - start];
            }
            progress.advance(end - start);
        }
        return rows;
    }

    /** CPU time of the whole process, onnxruntime's native threads included. */
    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private OnnxTextEncoder encoder() throws IOException {
        if (encoder == null) {
            encoder = new OnnxTextEncoder(model, threads);
        }
        return encoder;
    }

    private void writeMeta(Path meta, String dataset, int docs, int queries, double corpusRate, double queryRate)
            throws IOException {
        ObjectMapper json = new ObjectMapper();
        ObjectNode node = json.createObjectNode();
        node.put("model", model.directoryName());
        node.put("source_artifact", model.artifact());
        node.put("dataset", dataset);
        node.put("dimension", SentenceModel.DIMENSION);
        node.put("dtype", "float32, little-endian, row-major, no header");
        node.put("pooling", model.pooling().name().toLowerCase(Locale.ROOT));
        node.put("max_tokens", model.maxTokens());
        node.put("query_prefix", model.queryPrefix());
        node.put("document_text", "title + ' ' + text (text alone when the title is empty)");
        node.put("normalized", true);
        node.put(
                "runtime",
                "onnxruntime (CPU, ALL_OPT, intra-op threads " + threads + ", batch " + batchSize
                        + ", right padding masked) + DJL HuggingFace tokenizers");
        node.putObject("counts").put("corpus", docs).put("queries", queries);
        ObjectNode rates = node.putObject("rows_per_second_this_run");
        if (!Double.isNaN(corpusRate)) {
            rates.put("corpus", Math.round(corpusRate * 10) / 10.0);
        }
        if (!Double.isNaN(queryRate)) {
            rates.put("queries", Math.round(queryRate * 10) / 10.0);
        }
        node.put("created", Instant.now().toString());
        Path tmp = meta.resolveSibling("meta.json.tmp");
        json.writerWithDefaultPrettyPrinter().writeValue(tmp.toFile(), node);
        Files.move(tmp, meta, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /**
     * {@code BeirTextEmbedder <dataset> [--model bge-small-en-v1.5|all-MiniLM-L6-v2] [--beir DIR]
     * [--cache DIR] [--threads N] [--batch N]}; prints the folder it filled.
     */
    public static void main(String[] args) throws IOException {
        if (args.length == 0 || args[0].startsWith("--")) {
            System.err.println("usage: BeirTextEmbedder <dataset> [--model bge-small-en-v1.5|all-MiniLM-L6-v2]"
                    + " [--beir DIR (default <data dir>/beir)] [--cache DIR (default target/embeddings-cache)]"
                    + " [--threads N (default: cores)] [--batch N (default 32)]");
            System.exit(2);
        }
        if (System.getProperty("ai.djl.offline") == null) {
            System.setProperty(
                    "ai.djl.offline", "true"); // the tokenizer's native library comes from its jar, never a download
        }
        String dataset = args[0];
        SentenceModel model = SentenceModel.BGE_SMALL_EN_V15;
        Path beir = DataDirectory.resolve().resolve("beir");
        Path cache = Path.of("target", "embeddings-cache");
        int threads = Runtime.getRuntime().availableProcessors();
        int batch = DEFAULT_BATCH_SIZE;
        for (int i = 1; i < args.length; i += 2) {
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("option " + args[i] + " needs a value");
            }
            String value = args[i + 1];
            switch (args[i]) {
                case "--model" -> model = SentenceModel.forName(value);
                case "--beir" -> beir = Path.of(value);
                case "--cache" -> cache = Path.of(value);
                case "--threads" -> threads = Integer.parseInt(value);
                case "--batch" -> batch = Integer.parseInt(value);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        Path out = new BeirTextEmbedder(model, threads, batch).embed(dataset, beir, cache);
        System.out.println(out.toAbsolutePath());
    }
}
