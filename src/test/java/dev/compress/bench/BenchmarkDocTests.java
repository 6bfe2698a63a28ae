package dev.compress.bench;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/** The writer of docs/benchmarks.md's generated blocks: it replaces one section's block and nothing else. */
public class BenchmarkDocTests {

    @Rule
    public TemporaryFolder temp = new TemporaryFolder();

    private static final String DOC = """
        # Benchmarks

        Hand-written introduction.

        ## codec

        What codec measures.

        <!-- section: codec -->
        `bench/run quick codec` on an old machine.

        ### old codec table

        | a |
        | --- |
        | 1 |

        <!-- end section -->

        Analysis of the codec figures.

        ## node

        <!-- section: node -->
        old node tables
        <!-- end section -->

        ## What the figures say

        Conclusions.
        """;

    @Test
    public void replacesItsBlockAndKeepsEveryOtherLine() {
        String out = BenchmarkDoc.replace(DOC, "codec", "new codec tables\n\n| b |\n| --- |\n| 2 |\n");
        String expected = DOC.replace("""
            `bench/run quick codec` on an old machine.

            ### old codec table

            | a |
            | --- |
            | 1 |

            <!-- end section -->""", """
            new codec tables

            | b |
            | --- |
            | 2 |

            <!-- end section -->""");
        assertEquals(expected, out);
        assertTrue(out.contains("<!-- section: node -->\nold node tables\n<!-- end section -->"));
    }

    @Test
    public void replacingAgainWithTheSameTablesChangesNothing() {
        String once = BenchmarkDoc.replace(DOC, "node", "new node tables\n");
        assertEquals(once, BenchmarkDoc.replace(once, "node", "new node tables\n"));
        assertTrue(once.endsWith("Conclusions.\n"));
    }

    @Test
    public void aSectionWithoutBlockIsAppendedUnderItsName() {
        String out = BenchmarkDoc.replace(DOC, "walk", "walk tables");
        assertEquals(DOC + "\n## walk\n\n<!-- section: walk -->\nwalk tables\n\n<!-- end section -->\n", out);
        assertEquals(
                "## walk\n\n<!-- section: walk -->\nwalk tables\n\n<!-- end section -->\n",
                BenchmarkDoc.replace("", "walk", "walk tables"));
    }

    @Test
    public void aBrokenFileIsAnErrorNotAGuess() {
        String unclosed = "<!-- section: codec -->\ntables\n\n<!-- section: node -->\nx\n<!-- end section -->\n";
        assertThrows(IllegalStateException.class, () -> BenchmarkDoc.replace(unclosed, "node", "y"));
        assertThrows(
                IllegalStateException.class,
                () -> BenchmarkDoc.replace("<!-- section: codec -->\ntables\n", "codec", "y"));
        String twice =
                "<!-- section: codec -->\na\n<!-- end section -->\n<!-- section: codec -->\nb\n<!-- end section -->\n";
        assertThrows(IllegalStateException.class, () -> BenchmarkDoc.replace(twice, "codec", "y"));
        assertThrows(
                IllegalStateException.class, () -> BenchmarkDoc.replace("text\n<!-- end section -->\n", "codec", "y"));
        assertThrows(
                IllegalArgumentException.class, () -> BenchmarkDoc.replace(DOC, "codec", "a\n<!-- end section -->\nb"));
        assertThrows(IllegalArgumentException.class, () -> BenchmarkDoc.replace(DOC, "co -->dec", "y"));
    }

    @Test
    public void updateRewritesTheFileAndLeavesNoTemporaryFile() throws IOException {
        Path dir = temp.newFolder("docs").toPath();
        Path file = dir.resolve("benchmarks.md");
        Files.writeString(file, DOC);
        BenchmarkDoc.update(file, "node", "fresh");
        assertEquals(BenchmarkDoc.replace(DOC, "node", "fresh"), Files.readString(file));
        Path created = dir.resolve("new.md");
        BenchmarkDoc.update(created, "codec", "first");
        assertEquals("## codec\n\n<!-- section: codec -->\nfirst\n\n<!-- end section -->\n", Files.readString(created));
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(
                    List.of("benchmarks.md", "new.md"),
                    files.map(p -> p.getFileName().toString()).sorted().toList());
        }
    }

    @Test
    public void bodyHeadsTheTablesWithCommandAndMachine() {
        ResultTable table =
                new ResultTable("Scaling", List.of("docs", "qps")).add(Map.of("docs", 10_000, "qps", 1234.5));
        String body = BenchmarkDoc.body("bench/run quick scaling", "2 cores", List.of(table));
        assertEquals(
                "`bench/run quick scaling` on 2 cores.\n\n### Scaling\n\n| docs | qps |\n| --- | --- |\n| 10,000 | 1,235 |\n\n",
                body);
    }

    @Test
    public void commandCarriesTheEnvironmentBenchRunRead() {
        String heap = System.getProperty("bench.heap");
        String opts = System.getProperty("bench.opts");
        try {
            System.setProperty("bench.heap", "");
            System.setProperty("bench.opts", "");
            assertEquals("bench/run quick codec", BenchmarkDoc.command("quick", "codec"));
            System.setProperty("bench.heap", "8g");
            System.setProperty("bench.opts", " -Dbench.synthetic.docs=1000000   -Dbench.index.dir=DIR ");
            assertEquals(
                    "BENCH_HEAP=8g BENCH_OPTS=\"-Dbench.synthetic.docs=1000000 -Dbench.index.dir=DIR\" bench/run full walk",
                    BenchmarkDoc.command("full", "walk"));
        } finally {
            restore("bench.heap", heap);
            restore("bench.opts", opts);
        }
    }

    @Test
    public void machineNamesCoresJdkAndOsButNoLoad() {
        String machine = BenchmarkDoc.machine();
        assertTrue(machine, machine.startsWith(Runtime.getRuntime().availableProcessors() + " core"));
        assertTrue(machine, machine.contains(System.getProperty("java.runtime.version")));
        assertTrue(machine, machine.contains(System.getProperty("os.name")));
        assertTrue(machine, machine.contains("GiB of memory"));
        assertFalse(machine, machine.toLowerCase(java.util.Locale.ROOT).contains("load"));
    }

    /** A marker broken by hand would otherwise stop bench/run only after its first section ran. */
    @Test
    public void theRepositorysBenchmarksFileHasOneBlockPerSection() throws IOException {
        String doc = Files.readString(Path.of(System.getProperty("user.dir"), "docs", "benchmarks.md"));
        for (BenchSection section : BenchmarkHarness.SECTIONS) {
            String begin = BenchmarkDoc.begin(section.name());
            assertEquals(
                    section.name(),
                    1,
                    doc.lines().filter(l -> l.strip().equals(begin)).count());
            String replaced = BenchmarkDoc.replace(doc, section.name(), "tables");
            assertEquals(
                    section.name(),
                    doc.lines().count() - blockLines(doc, begin) + 4,
                    replaced.lines().count());
        }
    }

    /** Lines of the block that starts at {@code begin}, markers included. */
    private static long blockLines(String doc, String begin) {
        List<String> lines = doc.lines().toList();
        int start = lines.indexOf(begin);
        int end = start;
        while (lines.get(end).equals(BenchmarkDoc.END) == false) {
            end++;
        }
        return end - start + 1;
    }

    private static void restore(String key, String value) {
        if (value == null) {
            System.clearProperty(key);
        } else {
            System.setProperty(key, value);
        }
    }
}
