package dev.compress.demo.embed;

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
import java.util.List;
import java.util.function.Function;
import java.util.zip.GZIPInputStream;

/**
 * The texts of one BEIR file in file order, as the shared vectors embedded them: a document is
 * {@code title + " " + text} (just {@code text} when the title is empty), a query is its
 * {@code text}. Query prefixes are the encoder's business, not this class's.
 */
public record BeirTexts(List<String> ids, List<String> texts) {

    private static final ObjectMapper JSON = new ObjectMapper();

    public BeirTexts {
        if (ids.size() != texts.size()) {
            throw new IllegalArgumentException(ids.size() + " ids but " + texts.size() + " texts");
        }
    }

    public int size() {
        return ids.size();
    }

    /** {@code corpus.jsonl.gz} (as in ../shared/data) or {@code corpus.jsonl} in a BEIR data set folder. */
    public static BeirTexts corpus(Path datasetDir) throws IOException {
        Path gz = datasetDir.resolve("corpus.jsonl.gz");
        Path file = Files.exists(gz) ? gz : datasetDir.resolve("corpus.jsonl");
        return read(file, doc -> {
            String title = doc.path("title").asText("");
            String text = doc.path("text").asText("");
            return title.isEmpty() ? text : title + " " + text;
        });
    }

    /** Every query of {@code queries.jsonl}, all splits. */
    public static BeirTexts queries(Path datasetDir) throws IOException {
        return read(
                datasetDir.resolve("queries.jsonl"), query -> query.path("text").asText(""));
    }

    private static BeirTexts read(Path file, Function<JsonNode, String> text) throws IOException {
        if (!Files.exists(file)) {
            throw new IOException("BEIR file " + file + " does not exist");
        }
        List<String> ids = new ArrayList<>();
        List<String> texts = new ArrayList<>();
        try (InputStream raw = Files.newInputStream(file);
                InputStream in = file.toString().endsWith(".gz") ? new GZIPInputStream(raw, 1 << 16) : raw;
                BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            int lineNumber = 0;
            while ((line = reader.readLine()) != null) {
                lineNumber++;
                if (line.isBlank()) {
                    continue;
                }
                JsonNode node = JSON.readTree(line);
                JsonNode id = node.get("_id");
                if (id == null) {
                    throw new IOException(file + " line " + lineNumber + " has no _id");
                }
                ids.add(id.asText());
                texts.add(text.apply(node));
            }
        }
        return new BeirTexts(List.copyOf(ids), List.copyOf(texts));
    }
}
