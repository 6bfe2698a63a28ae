package dev.compress.bench;

import static dev.compress.bench.FormatComparison.LUCENE_FLOAT;
import static dev.compress.bench.FormatComparison.LUCENE_OSQ;
import static dev.compress.bench.FormatComparison.OURS_BINARY;

import dev.compress.bench.FormatComparison.SearchSpec;
import dev.compress.harness.BenchData;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Search latency and index size over corpus size, synthetic 384-d vectors, one budget per format
 * (5x candidates; the binary formats rescored). Sizes: {@code -Dbench.scaling.sizes} (comma
 * separated), else 10k and 30k (quick) or 10k, 100k, 300k and 1M (full; about 1.5 GB of float32 at
 * 1M, and slow graph building, since each index is built by one thread).
 */
final class ScalingSection implements BenchSection {

    @Override
    public String name() {
        return "scaling";
    }

    @Override
    public List<ResultTable> run(BenchMode mode) throws Exception {
        String sizes =
                System.getProperty("bench.scaling.sizes", mode.full() ? "10000,100000,300000,1000000" : "10000,30000");
        List<SearchSpec> searches = List.of(
                new SearchSpec(LUCENE_FLOAT, 5, false),
                new SearchSpec(LUCENE_OSQ, 5, true),
                new SearchSpec(OURS_BINARY, 5, true));
        ResultTable table = new ResultTable(
                "Scaling: synthetic 384-d, k = 10, 5x candidates, 1 search thread",
                List.of(
                        "docs",
                        "index",
                        "recall@10",
                        "visited_per_query",
                        "cpu_us_per_query",
                        "cpu_speedup_vs_float32",
                        "p50_ms",
                        "p99_ms",
                        "qps_1_thread",
                        "qps_ratio_to_float32",
                        "index_s",
                        "merge_s",
                        "disk_mb",
                        "graph_codes_mb"));
        for (int docs : Arrays.stream(sizes.split(","))
                .mapToInt(s -> Integer.parseInt(s.trim()))
                .toArray()) {
            List<Map<String, Object>> rows =
                    FormatComparison.run(BenchData.synthetic(docs, 500, 384, 42), searches, mode.threads());
            Map<String, Object> floatRow = rows.stream()
                    .filter(r -> LUCENE_FLOAT.equals(r.get("index")))
                    .findFirst()
                    .orElseThrow();
            for (Map<String, Object> row : rows) {
                row.put(
                        "qps_ratio_to_float32",
                        (Double) row.get("qps_1_thread") / (Double) floatRow.get("qps_1_thread"));
                row.put(
                        "cpu_speedup_vs_float32",
                        (Double) floatRow.get("cpu_us_per_query") / (Double) row.get("cpu_us_per_query"));
                row.put("disk_mb", (Double) row.get("disk_bytes_per_vector") * docs / 1e6);
                row.put("graph_codes_mb", (Double) row.get("graph_codes_bytes_per_vector") * docs / 1e6);
                row.remove(FormatComparison.PER_QUERY_RECALL);
                table.add(row);
            }
        }
        return List.of(table);
    }
}
