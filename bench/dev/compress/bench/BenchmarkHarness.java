package dev.compress.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The benchmark command ({@code bench/run}): {@code quick|full [section ...]}, sections {@code
 * kernels}, {@code codec}, {@code scaling}, {@code node}, {@code quality} (all, in that order, when
 * none is named), {@code walk} and {@code memory} (only when named: they read indexes a {@code codec}
 * run kept), {@code load} (only when named: minutes of ingest, search and training at once on
 * a cluster of real nodes), {@code knn} (only when named: our plugin beside the k-NN plugin on one
 * real node) and {@code pca} (only when named: the corpus PCA of a training job up to 4,096
 * dimensions).
 * Each section writes {@code <section>.json} (every value, plus the machine and its load) and
 * {@code <section>.md} under {@code target/bench/}; {@code report.md} joins this run's sections.
 * Each section's tables also replace its block in docs/benchmarks.md ({@link BenchmarkDoc}), or in
 * the file {@code -Dbench.docs} names; {@code -Dbench.docs=} (empty) leaves the docs alone.
 */
public final class BenchmarkHarness {

    private static final List<BenchSection> DEFAULT_SECTIONS = List.of(
            new KernelSection(), new CodecSection(), new ScalingSection(), new NodeSection(), new QualitySection());
    static final List<BenchSection> SECTIONS = Stream.concat(
                    DEFAULT_SECTIONS.stream(),
                    Stream.of(
                            new WalkSection(),
                            new MemorySection(),
                            new LoadSection(),
                            new KnnSideBySideSection(),
                            new NestedSection(),
                            new PcaSection()))
            .toList();

    private BenchmarkHarness() {}

    private static List<String> sectionNames() {
        return SECTIONS.stream().map(BenchSection::name).toList();
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 0) {
            System.err.println("usage: bench/run quick|full [" + String.join("] [", sectionNames()) + "]");
            System.exit(2);
        }
        BenchMode mode = BenchMode.of(args[0]);
        List<BenchSection> selected = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            String name = args[i];
            selected.add(SECTIONS.stream()
                    .filter(s -> s.name().equals(name))
                    .findFirst()
                    .orElseThrow(() -> new IllegalArgumentException(
                            "unknown section [" + name + "]; sections: " + String.join(", ", sectionNames()))));
        }
        if (selected.isEmpty()) {
            selected.addAll(DEFAULT_SECTIONS);
        }
        Path out = BenchPaths.output();
        Files.createDirectories(out);
        String docs = System.getProperty("bench.docs", "docs/benchmarks.md");
        ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        StringBuilder report = new StringBuilder();
        for (BenchSection section : selected) {
            Instant start = Instant.now().truncatedTo(ChronoUnit.SECONDS);
            String loadBefore = loadAverage();
            System.out.println("== " + section.name() + " (" + mode.name() + "), started " + start);
            List<ResultTable> tables = section.run(mode);
            Map<String, Object> machine = machine(loadBefore);
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("section", section.name());
            doc.put("mode", mode.name());
            doc.put("started", start.toString());
            doc.put("seconds", (Instant.now().toEpochMilli() - start.toEpochMilli()) / 1000.0);
            doc.put("machine", machine);
            doc.put("tables", tables.stream().map(ResultTable::toJson).toList());
            json.writeValue(out.resolve(section.name() + ".json").toFile(), doc);
            StringBuilder md = new StringBuilder("### ")
                    .append(section.name())
                    .append(" (")
                    .append(mode.name())
                    .append(" mode, ");
            md.append(start)
                    .append(", ")
                    .append(machine.get("cores"))
                    .append(" cores, load average ")
                    .append(loadBefore);
            md.append(" before / ").append(machine.get("load_average_after")).append(" after)\n\n");
            for (ResultTable table : tables) {
                md.append(table.markdown());
            }
            Files.writeString(out.resolve(section.name() + ".md"), md);
            report.append(md);
            System.out.print(md);
            if (docs.isBlank() == false) {
                BenchmarkDoc.update(
                        Path.of(docs),
                        section.name(),
                        BenchmarkDoc.body(
                                BenchmarkDoc.command(mode.name(), section.name()), BenchmarkDoc.machine(), tables));
                System.out.println("== " + section.name() + ": tables written to " + docs);
            }
        }
        Files.writeString(out.resolve("report.md"), report);
    }

    private static Map<String, Object> machine(String loadBefore) {
        Map<String, Object> machine = new LinkedHashMap<>();
        machine.put("cores", Runtime.getRuntime().availableProcessors());
        machine.put("description", BenchmarkDoc.machine());
        machine.put("java", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
        machine.put("os", System.getProperty("os.name") + " " + System.getProperty("os.arch"));
        machine.put("load_average_before", loadBefore);
        machine.put("load_average_after", loadAverage());
        return machine;
    }

    /** The 1-, 5- and 15-minute load averages: other work on the machine skews every speed figure. */
    private static String loadAverage() {
        try {
            String[] parts = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return parts[0] + " " + parts[1] + " " + parts[2];
        } catch (IOException e) {
            return "unknown";
        }
    }
}
