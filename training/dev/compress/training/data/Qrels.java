package dev.compress.training.data;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Graded relevance judgments: query id -> (doc id -> rating). Insertion order follows the file,
 * so iteration is deterministic.
 */
public final class Qrels {

    private final Map<String, Map<String, Integer>> byQuery;

    public Qrels(Map<String, Map<String, Integer>> byQuery) {
        Map<String, Map<String, Integer>> copy = new LinkedHashMap<>();
        byQuery.forEach((q, docs) -> copy.put(q, Collections.unmodifiableMap(new LinkedHashMap<>(docs))));
        this.byQuery = Collections.unmodifiableMap(copy);
    }

    /**
     * Reads a BEIR qrels TSV: a header line {@code query-id corpus-id score}, then one judgment per
     * line. {@link BufferedReader#readLine()} strips both LF and CRLF endings.
     */
    public static Qrels readTsv(Path file) throws IOException {
        Map<String, Map<String, Integer>> byQuery = new LinkedHashMap<>();
        try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            int lineNo = 0;
            while ((line = reader.readLine()) != null) {
                lineNo++;
                if (line.isBlank() || (lineNo == 1 && line.startsWith("query-id"))) {
                    continue;
                }
                String[] f = line.split("\t");
                if (f.length != 3) {
                    throw new IOException(file + ":" + lineNo + ": expected 3 tab-separated fields, got " + f.length);
                }
                int rating;
                try {
                    rating = Integer.parseInt(f[2].strip());
                } catch (NumberFormatException e) {
                    throw new IOException(file + ":" + lineNo + ": rating '" + f[2] + "' is not an integer");
                }
                byQuery.computeIfAbsent(f[0].strip(), k -> new LinkedHashMap<>())
                        .put(f[1].strip(), rating);
            }
        }
        return new Qrels(byQuery);
    }

    public Set<String> queryIds() {
        return byQuery.keySet();
    }

    /** All judgments of a query (including rating 0), empty when none. */
    public Map<String, Integer> judgments(String queryId) {
        return byQuery.getOrDefault(queryId, Map.of());
    }

    /** Documents with rating > 0. */
    public List<String> relevant(String queryId) {
        return judgments(queryId).entrySet().stream()
                .filter(e -> e.getValue() > 0)
                .map(Map.Entry::getKey)
                .toList();
    }

    /** A subset restricted to the given queries (in this file's order). */
    public Qrels restrictTo(Set<String> queryIds) {
        Map<String, Map<String, Integer>> sub = new LinkedHashMap<>();
        byQuery.forEach((q, docs) -> {
            if (queryIds.contains(q)) {
                sub.put(q, docs);
            }
        });
        return new Qrels(sub);
    }

    public int judgmentCount() {
        return byQuery.values().stream().mapToInt(Map::size).sum();
    }
}
