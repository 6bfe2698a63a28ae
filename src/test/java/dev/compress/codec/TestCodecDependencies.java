package dev.compress.codec;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.lucene.tests.util.LuceneTestCase;

/** codec/ sources may use only the JDK (with its Vector API), Lucene and codec/ itself. */
public class TestCodecDependencies extends LuceneTestCase {

    private static final Pattern IMPORT = Pattern.compile("^import\\s+(?:static\\s+)?([\\w.]+)", Pattern.MULTILINE);
    private static final List<String> ALLOWED =
            List.of("java.", "jdk.incubator.vector.", "org.apache.lucene.", "dev.compress.codec.");

    public void testImportsStayInsideLuceneAndJdk() throws IOException {
        Path root = Path.of("codec");
        assertTrue("run from the project root: " + root.toAbsolutePath(), Files.isDirectory(root));
        List<String> violations = new ArrayList<>();
        int files = 0;
        try (Stream<Path> sources = Files.walk(root)) {
            for (Path source : (Iterable<Path>) sources.filter(p -> p.toString().endsWith(".java"))::iterator) {
                files++;
                Matcher m = IMPORT.matcher(Files.readString(source));
                while (m.find()) {
                    String imported = m.group(1);
                    if (ALLOWED.stream().noneMatch(imported::startsWith)) {
                        violations.add(source + ": " + imported);
                    }
                }
            }
        }
        assertTrue("no sources found under " + root.toAbsolutePath(), files > 0);
        assertTrue("codec/ must depend only on the JDK and Lucene: " + violations, violations.isEmpty());
    }
}
