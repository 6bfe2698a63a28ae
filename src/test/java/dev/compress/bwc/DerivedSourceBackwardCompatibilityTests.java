package dev.compress.bwc;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;

import dev.compress.plugin.codec.DerivedSourceCodec;
import dev.compress.plugin.codec.DerivedSourceStoredFieldsFormat;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.SegmentCommitInfo;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.opensearch.common.xcontent.XContentHelper;
import org.opensearch.core.common.bytes.BytesArray;

/**
 * Indexes whose vectors left {@code _source} under earlier versions still read back every source as
 * it was sent, through the codec Lucene finds by the name the segments recorded.
 *
 * <p>When to add a resource: when a change makes the writer strip or record differently (the
 * placeholder, the segment attribute, the codec name, or the Lucene codec {@link DerivedSourceCodec}
 * stands for), raise {@link DerivedSourceStoredFieldsFormat#VERSION_CURRENT}, run {@link
 * BackwardCompatibilityResources} on that commit, and add the new name to {@link #RESOURCES}.
 */
public class DerivedSourceBackwardCompatibilityTests {

    private static final List<String> RESOURCES = List.of(DerivedSourceResource.name(1));

    @Rule
    public TemporaryFolder temp = new TemporaryFolder();

    @Test
    public void everySourceReadsBackAsSent() throws IOException {
        for (String resource : RESOURCES) {
            Path dir = temp.newFolder(resource).toPath();
            Map<String, String> sent;
            try (InputStream zip = getClass().getResourceAsStream(resource)) {
                assertNotNull("resource " + resource + " is missing", zip);
                sent = DerivedSourceResource.unzip(zip, dir);
            }
            try (Directory directory = FSDirectory.open(dir)) {
                for (SegmentCommitInfo segment : SegmentInfos.readLatestCommit(directory)) {
                    assertEquals(
                            resource,
                            DerivedSourceCodec.NAME,
                            segment.info.getCodec().getName());
                }
                Map<String, Map<String, Object>> read = new HashMap<>();
                try (DirectoryReader reader = DirectoryReader.open(directory)) {
                    for (LeafReaderContext leaf : reader.leaves()) {
                        StoredFields stored = leaf.reader().storedFields();
                        for (int doc = 0; doc < leaf.reader().maxDoc(); doc++) {
                            Document d = stored.document(doc);
                            read.put(
                                    d.get(BackwardCompatibilityIndex.ID),
                                    map(d.getBinaryValue(DerivedSourceStoredFieldsFormat.SOURCE_FIELD).bytes));
                        }
                    }
                }
                Map<String, Map<String, Object>> expected = new HashMap<>();
                sent.forEach(
                        (id, json) -> expected.put(id, map(json.getBytes(java.nio.charset.StandardCharsets.UTF_8))));
                assertEquals(resource, expected, read);
            }
        }
    }

    private static Map<String, Object> map(byte[] json) {
        return XContentHelper.convertToMap(new BytesArray(json), true).v2();
    }
}
