package dev.compress.architecture;

import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.Test;

/**
 * The naming rule of bench/README.md: a class's suffix says how it is run. {@code *Section} is a
 * section of bench/run, {@code *Jmh} a JMH class in {@code dev.compress.bench.jmh}, {@code *Main} a
 * program run by hand, {@code *ClusterBench} a hand-run test on the in-JVM cluster; no class name
 * ends in {@code Benchmark}. Reads the sources.
 */
public class BenchNamingTests {

    private static final Path BENCH = Path.of(System.getProperty("user.dir")).resolve("bench");
    private static final Pattern JMH_ANNOTATION = Pattern.compile("^\\s*@Benchmark\\b", Pattern.MULTILINE);
    private static final Pattern EXTENDS_TEST_CASE =
            Pattern.compile("\\bclass\\s+\\w+\\s+extends\\s+\\w*(TestCase|IntegTestCase)\\b");
    private static final Pattern IMPLEMENTS_SECTION =
            Pattern.compile("\\bclass\\s+\\w+\\s+implements\\s+BenchSection\\b");
    private static final Pattern MAIN_METHOD = Pattern.compile("public static void main\\(String\\[\\] args\\)");

    @Test
    public void everyBenchClassFollowsTheNamingRule() throws IOException {
        assertTrue("source root missing: " + BENCH, Files.isDirectory(BENCH));
        List<String> violations = new ArrayList<>();
        int scanned = 0;
        try (Stream<Path> files = Files.walk(BENCH)) {
            for (Path file : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".java"))::iterator) {
                scanned++;
                String name = file.getFileName().toString().replaceFirst("\\.java$", "");
                String source = Files.readString(file);
                String where = BENCH.relativize(file).toString();
                boolean jmhPackage = file.getParent().getFileName().toString().equals("jmh");
                if (name.endsWith("Benchmark")) {
                    violations.add(
                            where + ": 'Benchmark' does not say how it runs; use Section, Jmh, Main or ClusterBench");
                }
                if (JMH_ANNOTATION.matcher(source).find() != (name.endsWith("Jmh") && jmhPackage)) {
                    violations.add(
                            where + ": JMH classes, and only they, are named *Jmh and live in dev.compress.bench.jmh");
                }
                if (EXTENDS_TEST_CASE.matcher(source).find() != name.endsWith("ClusterBench")) {
                    violations.add(where + ": cluster test cases, and only they, are named *ClusterBench");
                }
                if (IMPLEMENTS_SECTION.matcher(source).find()
                        != (name.endsWith("Section") && name.equals("BenchSection") == false)) {
                    violations.add(where + ": bench/run sections, and only they, are named *Section");
                }
                if (name.endsWith("Main") && MAIN_METHOD.matcher(source).find() == false) {
                    violations.add(where + ": a *Main class is a program and has a main method");
                }
            }
        }
        assertTrue("no source file under " + BENCH, scanned > 0);
        if (violations.isEmpty() == false) {
            fail("bench/ naming rule (bench/README.md):\n" + String.join("\n", violations));
        }
    }
}
