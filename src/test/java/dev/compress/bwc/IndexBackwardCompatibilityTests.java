package dev.compress.bwc;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import dev.compress.bwc.BackwardCompatibilityIndex.ScoredId;
import dev.compress.codec.binary.BinaryHnswVectorsFormat;
import dev.compress.codec.floats.FloatHnswVectorsFormat;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.lucene.codecs.perfield.PerFieldKnnVectorsFormat;
import org.apache.lucene.index.CheckIndex;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * Indexes written by earlier versions are still read, as Lucene's backward-compatibility tests
 * do it: each resource is a Lucene index written with our vector formats (by {@link
 * BackwardCompatibilityResources}) and the answers the writing version's reader gave, and today's
 * code must pass CheckIndex on it, read every vector back the same (floats exactly, codes-only
 * fields as the same decoded codes), find every document with a vector, and return the same rescored
 * top ten with the same scores. The ranking of codes-only fields is an estimate that may improve
 * without any change to the files, so for them only the decoded vectors and full coverage are held.
 *
 * <h2>When to add a resource</h2>
 *
 * When a change makes today's writer write something an older reader would not read the same:
 * {@code BinaryFlatVectorsFormat.VERSION_CURRENT} is raised (any change to {@code .vbm} or {@code
 * .vbc}), a vector format or its SPI name is added, or the Lucene upgrade changes the default codec.
 * Then, on the commit that makes the change, run {@link BackwardCompatibilityResources} (it writes
 * resources for the current versions and never replaces an existing one), add the new name to
 * {@link #INDEXES}, and keep every older resource for as long as the readers claim to read its
 * version ({@code VERSION_START}); remove one only together with that support. A resource is never
 * regenerated: when an old one fails here, the change broke the indexes users already have. After a
 * Lucene upgrade the older resources also need Lucene's backward codecs, which OpenSearch ships.
 */
public class IndexBackwardCompatibilityTests {

    static final String EXPECTATIONS = "expected.json";

    /** Every index resource, oldest first; one per version of our files that is still read. */
    private static final List<String> INDEXES =
            List.of(BackwardCompatibilityResources.indexResource(1), BackwardCompatibilityResources.indexResource(2));

    @Rule
    public TemporaryFolder temp = new TemporaryFolder();

    private IndexExpectations unzip(String resource, Path dir) throws IOException {
        try (InputStream zip = getClass().getResourceAsStream(resource)) {
            assertNotNull("resource " + resource + " is missing", zip);
            return BackwardCompatibilityResources.unzipIndex(zip, dir);
        }
    }

    @Test
    public void everyIndexResourceReadsAsItsWriterReadIt() throws IOException {
        for (String resource : INDEXES) {
            Path dir = temp.newFolder(resource).toPath();
            IndexExpectations expected = unzip(resource, dir);
            assertEquals(resource, BackwardCompatibilityResources.indexResource(expected.binaryFlatFormat()));
            try (Directory directory = FSDirectory.open(dir)) {
                CheckResult check = checkIndex(directory);
                assertTrue(resource + " is not clean:\n" + check.log(), check.clean());
                try (DirectoryReader reader = DirectoryReader.open(directory)) {
                    assertEquals(
                            "the resource was written by our formats",
                            Set.of(BinaryHnswVectorsFormat.NAME, FloatHnswVectorsFormat.NAME),
                            vectorFormats(reader));
                    assertReadsAsWritten(resource, expected, reader);
                }
            }
        }
    }

    private static void assertReadsAsWritten(String resource, IndexExpectations expected, DirectoryReader reader)
            throws IOException {
        for (String field : BackwardCompatibilityIndex.EXACT_FIELDS) {
            assertSameVectors(
                    resource + " " + field, expected.vectors(), BackwardCompatibilityIndex.vectors(reader, field));
            List<List<ScoredId>> answers = expected.nearest().get(field);
            for (int q = 0; q < expected.queries().size(); q++) {
                List<ScoredId> want = answers.get(q);
                List<ScoredId> got = BackwardCompatibilityIndex.nearest(
                        reader, field, expected.queries().get(q));
                String what = resource + " " + field + " query " + q;
                assertEquals(
                        what,
                        want.stream().map(ScoredId::id).toList(),
                        got.stream().map(ScoredId::id).toList());
                for (int i = 0; i < want.size(); i++) {
                    assertEquals(what, want.get(i).score(), got.get(i).score(), 1e-6f);
                }
            }
        }
        Map<String, float[]> decoded = BackwardCompatibilityIndex.vectors(reader, BackwardCompatibilityIndex.CODES);
        assertSameVectors(resource + " codes", expected.decodedCodes(), decoded);
        for (float[] query : expected.queries()) {
            List<ScoredId> all = BackwardCompatibilityIndex.estimated(
                    reader, BackwardCompatibilityIndex.CODES, query, decoded.size());
            assertEquals(
                    resource + ": a search for every document of the codes-only field finds each of them",
                    decoded.keySet(),
                    all.stream().map(ScoredId::id).collect(Collectors.toSet()));
        }
    }

    private static void assertSameVectors(String what, Map<String, float[]> expected, Map<String, float[]> actual) {
        assertEquals(what + ": documents with a vector", expected.keySet(), actual.keySet());
        expected.forEach((id, v) -> assertArrayEquals(what + " doc " + id, v, actual.get(id), 0f));
    }

    /** CheckIndex sees damage in our files: the check above is not one that always passes. */
    @Test
    public void aFlippedByteInTheCodesFailsCheckIndex() throws IOException {
        String resource = INDEXES.get(INDEXES.size() - 1);
        Path dir = temp.newFolder("damaged").toPath();
        unzip(resource, dir);
        Path codes;
        try (Stream<Path> files = Files.list(dir)) {
            codes = files.filter(f -> f.toString().endsWith(".vbc")).findFirst().orElseThrow();
        }
        byte[] bytes = Files.readAllBytes(codes);
        bytes[bytes.length / 2] ^= 0x10;
        Files.write(codes, bytes);
        try (Directory directory = FSDirectory.open(dir)) {
            CheckResult check = checkIndex(directory);
            assertFalse(check.log(), check.clean());
            assertTrue(check.log(), check.log().contains("checksum failed"));
        }
    }

    private record CheckResult(boolean clean, String log) {}

    private static CheckResult checkIndex(Directory directory) throws IOException {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        try (CheckIndex checker = new CheckIndex(directory)) {
            checker.setLevel(CheckIndex.Level.MIN_LEVEL_FOR_SLOW_CHECKS);
            checker.setInfoStream(new PrintStream(log, true, StandardCharsets.UTF_8));
            boolean clean = checker.checkIndex().clean;
            return new CheckResult(clean, log.toString(StandardCharsets.UTF_8));
        }
    }

    private static Set<String> vectorFormats(DirectoryReader reader) {
        Set<String> formats = new TreeSet<>();
        for (LeafReaderContext leaf : reader.leaves()) {
            for (FieldInfo field : leaf.reader().getFieldInfos()) {
                String format = field.getAttribute(PerFieldKnnVectorsFormat.PER_FIELD_FORMAT_KEY);
                if (format != null) {
                    formats.add(format);
                }
            }
        }
        return formats;
    }
}
