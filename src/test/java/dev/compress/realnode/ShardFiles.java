package dev.compress.realnode;

import static org.junit.Assert.assertEquals;

import dev.compress.harness.RealNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;

/** A one-shard index's files on a running real node, to see which codec wrote them. */
final class ShardFiles {

    private ShardFiles() {}

    /** Flushes the index and returns its one shard's Lucene directory. */
    static Path shardDirectory(RealNode node, String index) throws Exception {
        node.call("POST", "/" + index + "/_flush", null);
        @SuppressWarnings("unchecked")
        Map<String, Object> settings = (Map<String, Object>) ((Map<String, Object>)
                        node.call("GET", "/" + index + "/_settings", null).get(index))
                .get("settings");
        @SuppressWarnings("unchecked")
        String uuid = (String) ((Map<String, Object>) settings.get("index")).get("uuid");
        List<Path> shards = node.shardIndexDirectories(uuid);
        assertEquals(index + " has one shard", 1, shards.size());
        return shards.get(0);
    }

    /**
     * The latest commit point's bytes as text: it names each segment's codec, even one from another
     * plugin that this JVM cannot load.
     */
    static String lastCommit(Path shard) throws Exception {
        try (Directory dir = FSDirectory.open(shard)) {
            String segments = SegmentInfos.getLastCommitSegmentsFileName(dir.listAll());
            return new String(Files.readAllBytes(shard.resolve(segments)), StandardCharsets.ISO_8859_1);
        }
    }
}
