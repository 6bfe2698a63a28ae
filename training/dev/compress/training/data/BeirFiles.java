package dev.compress.training.data;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;

/**
 * Reads the BEIR layout of one data set: {@code corpus.jsonl(.gz)}, {@code queries.jsonl} and
 * {@code qrels/<split>.tsv}. Only ids and query texts are kept; document texts are not needed for
 * training on precomputed embeddings.
 */
public final class BeirFiles {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path dir;

    public BeirFiles(Path datasetDir) {
        this.dir = datasetDir;
    }

    /** {@code <dataDir>/beir/<dataset>}. */
    public static BeirFiles of(Path dataDir, String dataset) {
        return new BeirFiles(dataDir.resolve("beir").resolve(dataset));
    }

    /** Corpus document ids in file order (gzipped or plain corpus). */
    public List<String> corpusIds() throws IOException {
        Path gz = dir.resolve("corpus.jsonl.gz");
        Path plain = dir.resolve("corpus.jsonl");
        List<String> ids = new ArrayList<>();
        try (InputStream raw = Files.newInputStream(Files.exists(gz) ? gz : plain);
                InputStream in = Files.exists(gz) ? new GZIPInputStream(raw, 1 << 16) : raw) {
            forEachJsonLine(in, node -> ids.add(node.get("_id").asText()));
        }
        return ids;
    }

    /** Query id -> text, in file order. */
    public Map<String, String> queries() throws IOException {
        Map<String, String> queries = new LinkedHashMap<>();
        try (InputStream in = Files.newInputStream(dir.resolve("queries.jsonl"))) {
            forEachJsonLine(
                    in,
                    node -> queries.put(
                            node.get("_id").asText(), node.path("text").asText()));
        }
        return queries;
    }

    public Qrels qrels(String split) throws IOException {
        Path file = dir.resolve("qrels").resolve(split + ".tsv");
        if (!Files.exists(file)) {
            throw new IOException("no qrels split '" + split + "': " + file + " does not exist");
        }
        return Qrels.readTsv(file);
    }

    private interface LineHandler {
        void accept(JsonNode node) throws IOException;
    }

    private static void forEachJsonLine(InputStream in, LineHandler handler) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        String line;
        while ((line = reader.readLine()) != null) {
            if (!line.isBlank()) {
                handler.accept(JSON.readTree(line));
            }
        }
    }
}
