package dev.compress.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * The generated parts of docs/benchmarks.md: each section's latest tables sit between a line
 * {@code <!-- section: NAME -->} and the next line {@code <!-- end section -->}, headed by the command
 * that produced them and the machine they ran on. A run replaces the blocks of the sections it ran
 * and leaves every other line of the file as it was, so the explanations around the blocks are
 * written by hand and the tables are not. A section without a block is appended at the end.
 */
final class BenchmarkDoc {

    static final String END = "<!-- end section -->";
    private static final String BEGIN_PREFIX = "<!-- section:";

    private BenchmarkDoc() {}

    static String begin(String section) {
        return BEGIN_PREFIX + " " + section + " -->";
    }

    /** Replaces {@code section}'s block in {@code file} (created when absent) with {@code body}; the file is replaced whole, never left half written. */
    static void update(Path file, String section, String body) throws IOException {
        String document = Files.exists(file) ? Files.readString(file) : "";
        String updated = replace(document, section, body);
        Path parent = file.toAbsolutePath().getParent();
        Files.createDirectories(parent);
        Path temp = Files.createTempFile(parent, file.getFileName().toString(), ".tmp");
        try {
            Files.writeString(temp, updated);
            Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    /**
     * {@code document} with the lines between {@code section}'s markers replaced by {@code body}, or
     * with a new block under a heading of the section's name appended when it has none. A block
     * that is not closed before the next block or the end of the file is an error, as are two blocks
     * of one section: the file is left for a person to mend rather than guessed at.
     */
    static String replace(String document, String section, String body) {
        if (section.isBlank() || section.contains("-->") || section.strip().equals(section) == false) {
            throw new IllegalArgumentException("bad section name [" + section + "]");
        }
        List<String> bodyLines = lines(body.strip());
        for (String line : bodyLines) {
            if (isMarker(line)) {
                throw new IllegalArgumentException("section [" + section + "]'s body holds a marker line: " + line);
            }
        }
        List<String> lines = lines(document);
        String begin = begin(section);
        int start = -1;
        int end = -1;
        int open = -1;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.startsWith(BEGIN_PREFIX)) {
                if (open >= 0) {
                    throw new IllegalStateException("line " + (open + 1) + ": block ["
                            + lines.get(open).strip() + "] is not closed before line " + (i + 1));
                }
                open = i;
                if (line.equals(begin)) {
                    if (start >= 0) {
                        throw new IllegalStateException("section [" + section + "] has two blocks, at lines "
                                + (start + 1) + " and " + (i + 1));
                    }
                    start = i;
                }
            } else if (line.equals(END)) {
                if (open < 0) {
                    throw new IllegalStateException("line " + (i + 1) + ": " + END + " closes no block");
                }
                if (open == start) {
                    end = i;
                }
                open = -1;
            }
        }
        if (open >= 0) {
            throw new IllegalStateException(
                    "line " + (open + 1) + ": block [" + lines.get(open).strip() + "] is never closed");
        }
        List<String> block = new ArrayList<>();
        block.add(begin);
        block.addAll(bodyLines);
        block.add("");
        block.add(END);
        List<String> out = new ArrayList<>();
        if (start < 0) {
            out.addAll(lines);
            while (out.isEmpty() == false && out.getLast().isBlank()) {
                out.removeLast();
            }
            if (out.isEmpty() == false) {
                out.add("");
            }
            out.add("## " + section);
            out.add("");
            out.addAll(block);
        } else {
            out.addAll(lines.subList(0, start));
            out.addAll(block);
            out.addAll(lines.subList(end + 1, lines.size()));
        }
        return String.join("\n", out) + "\n";
    }

    /** A block's body: the command and the machine, then the tables. */
    static String body(String command, String machine, List<ResultTable> tables) {
        StringBuilder out = new StringBuilder("`")
                .append(command)
                .append("` on ")
                .append(machine)
                .append(".\n\n");
        for (ResultTable table : tables) {
            out.append(table.markdown(3));
        }
        return out.toString();
    }

    /**
     * The command line that reruns one section as this run ran it: the mode, the section, and the
     * environment bench/run read ({@code -Dbench.heap} and {@code -Dbench.opts} carry BENCH_HEAP and
     * BENCH_OPTS).
     */
    static String command(String mode, String section) {
        StringBuilder out = new StringBuilder();
        String heap = System.getProperty("bench.heap", "");
        String opts = System.getProperty("bench.opts", "").strip().replaceAll("\\s+", " ");
        if (heap.isBlank() == false) {
            out.append("BENCH_HEAP=").append(heap.strip()).append(' ');
        }
        if (opts.isEmpty() == false) {
            out.append("BENCH_OPTS=\"").append(opts).append("\" ");
        }
        return out.append("bench/run ").append(mode).append(' ').append(section).toString();
    }

    /** Cores, processor, memory, JDK and OS: what the speed figures depend on, nothing that changes from run to run. */
    static String machine() {
        List<String> parts = new ArrayList<>();
        int cores = Runtime.getRuntime().availableProcessors();
        String cpu = cpuModel();
        parts.add(cores + (cores == 1 ? " core" : " cores") + (cpu == null ? "" : " (" + cpu + ")"));
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            parts.add(String.format(Locale.ROOT, "%.1f GiB of memory", os.getTotalMemorySize() / (double) (1L << 30)));
        }
        parts.add(System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
        parts.add(System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                + System.getProperty("os.arch"));
        return String.join(", ", parts);
    }

    private static String cpuModel() {
        try (Stream<String> lines = Files.lines(Path.of("/proc/cpuinfo"))) {
            return lines.filter(l -> l.startsWith("model name"))
                    .map(l -> l.substring(l.indexOf(':') + 1).strip().replaceAll("\\s+", " "))
                    .findFirst()
                    .orElse(null);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static boolean isMarker(String line) {
        String l = line.strip();
        return l.startsWith(BEGIN_PREFIX) || l.equals(END);
    }

    /** The lines of {@code text}; a final line break ends the last line rather than starting an empty one. */
    private static List<String> lines(String text) {
        String t = text.replaceFirst("\\r?\\n\\z", "");
        if (t.isEmpty()) {
            return new ArrayList<>();
        }
        return new ArrayList<>(List.of(t.split("\r?\n", -1)));
    }
}
