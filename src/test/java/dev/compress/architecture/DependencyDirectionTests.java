package dev.compress.architecture;

import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.Test;

/**
 * Dependencies point one way: plugin -> training and plugin -> codec. codec/ is Lucene only,
 * training/ uses neither OpenSearch nor Lucene, and neither of them knows the other or the plugin.
 * Of the programs, demo/ and bench/ both use harness/, which knows neither, and neither knows the other.
 * Reads the sources, so imports and fully qualified names are both caught.
 */
public class DependencyDirectionTests {

    private static final Path ROOT = Path.of(System.getProperty("user.dir"));

    @Test
    public void codecDependsOnLuceneOnly() throws IOException {
        assertNoReferences(
                "codec",
                "org\\.opensearch\\.",
                "dev\\.compress\\.plugin\\.",
                "dev\\.compress\\.training\\.",
                "ai\\.djl\\.");
    }

    @Test
    public void trainingDependsOnNeitherOpenSearchNorLuceneNorCodec() throws IOException {
        assertNoReferences(
                "training",
                "org\\.opensearch\\.",
                "org\\.apache\\.lucene\\.",
                "dev\\.compress\\.plugin\\.",
                "dev\\.compress\\.codec\\.");
    }

    @Test
    public void harnessKnowsNeitherDemoNorBench() throws IOException {
        assertNoReferences("harness", "dev\\.compress\\.demo\\.", "dev\\.compress\\.bench\\.");
    }

    @Test
    public void demoAndBenchDoNotKnowEachOther() throws IOException {
        assertNoReferences("demo", "dev\\.compress\\.bench\\.");
        assertNoReferences("bench", "dev\\.compress\\.demo\\.");
    }

    @Test
    public void theGuardSeesAViolation() {
        assertTrue(referencePattern("org\\.opensearch\\.")
                .matcher("import org.opensearch.common.Foo;")
                .find());
        assertTrue(referencePattern("dev\\.compress\\.plugin\\.")
                .matcher("x = new dev.compress.plugin.Foo();")
                .find());
    }

    private static Pattern referencePattern(String forbiddenPrefix) {
        return Pattern.compile("(?<![\\w.])" + forbiddenPrefix);
    }

    private static void assertNoReferences(String sourceRoot, String... forbiddenPrefixes) throws IOException {
        Path root = ROOT.resolve(sourceRoot);
        assertTrue("source root missing: " + root, Files.isDirectory(root));
        List<String> violations = new ArrayList<>();
        int scanned = 0;
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".java"))::iterator) {
                scanned++;
                List<String> lines = Files.readAllLines(file);
                for (int i = 0; i < lines.size(); i++) {
                    String code = stripComment(lines.get(i));
                    for (String prefix : forbiddenPrefixes) {
                        Matcher m = referencePattern(prefix).matcher(code);
                        if (m.find()) {
                            violations.add(ROOT.relativize(file) + ":" + (i + 1) + ": "
                                    + lines.get(i).trim());
                        }
                    }
                }
            }
        }
        assertTrue("no source file under " + root, scanned > 0);
        if (violations.isEmpty() == false) {
            fail(sourceRoot + "/ must not depend on " + String.join(", ", forbiddenPrefixes) + ":\n"
                    + String.join("\n", violations));
        }
    }

    private static String stripComment(String line) {
        String trimmed = line.trim();
        if (trimmed.startsWith("*") || trimmed.startsWith("/*")) {
            return "";
        }
        int comment = line.indexOf("//");
        return comment >= 0 ? line.substring(0, comment) : line;
    }
}
