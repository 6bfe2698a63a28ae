package dev.compress.plugin.durability;

import static org.junit.Assert.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import org.apache.lucene.codecs.perfield.PerFieldKnnVectorsFormat;
import org.apache.lucene.index.CheckIndex;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.IndexCommit;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.IOContext;
import org.opensearch.common.concurrent.GatedCloseable;
import org.opensearch.index.IndexService;
import org.opensearch.index.shard.IndexShard;
import org.opensearch.indices.IndicesService;
import org.opensearch.test.InternalTestCluster;

/**
 * Lucene's {@link CheckIndex} on every copy of an index's shards in the internal cluster. A running
 * shard holds its directory's write lock, so each copy's last commit is copied out while the shard
 * keeps it from deletion, and checked there with the codecs this JVM has on its classpath, ours
 * included.
 */
final class CommittedShards {

    private CommittedShards() {}

    /**
     * Flushes every copy, checks each one's last commit at the slow level (which also reads every
     * vector and searches the graphs), and returns the vector formats the checked segments name: the
     * caller can see that the formats it meant to check were there.
     */
    static Set<String> assertCheckIndexClean(InternalTestCluster cluster, String index, Path scratch)
            throws IOException {
        Set<String> formats = new TreeSet<>();
        int copies = 0;
        for (String node : cluster.getNodeNames()) {
            IndicesService indices = cluster.getInstance(IndicesService.class, node);
            for (IndexService service : indices) {
                if (service.index().getName().equals(index) == false) {
                    continue;
                }
                for (IndexShard shard : service) {
                    Path copy = scratch.resolve(node + "-" + shard.shardId().id());
                    copyLastCommit(shard, copy);
                    assertClean(shard + " on " + node, copy);
                    formats.addAll(vectorFormats(copy));
                    copies++;
                }
            }
        }
        assertTrue("no copy of [" + index + "] found on any node", copies > 0);
        return formats;
    }

    private static Set<String> vectorFormats(Path copy) throws IOException {
        Set<String> formats = new TreeSet<>();
        try (Directory dir = FSDirectory.open(copy);
                DirectoryReader reader = DirectoryReader.open(dir)) {
            for (LeafReaderContext leaf : reader.leaves()) {
                for (FieldInfo field : leaf.reader().getFieldInfos()) {
                    String format = field.getAttribute(PerFieldKnnVectorsFormat.PER_FIELD_FORMAT_KEY);
                    if (format != null) {
                        formats.add(format);
                    }
                }
            }
        }
        return formats;
    }

    private static void copyLastCommit(IndexShard shard, Path target) throws IOException {
        shard.store().incRef();
        try (GatedCloseable<IndexCommit> commit = shard.acquireLastIndexCommit(true);
                Directory out = FSDirectory.open(target)) {
            for (String name : commit.get().getFileNames()) {
                out.copyFrom(shard.store().directory(), name, name, IOContext.DEFAULT);
            }
        } finally {
            shard.store().decRef();
        }
    }

    private static void assertClean(String what, Path copy) throws IOException {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        try (Directory dir = FSDirectory.open(copy);
                CheckIndex checker = new CheckIndex(dir)) {
            checker.setLevel(CheckIndex.Level.MIN_LEVEL_FOR_SLOW_CHECKS);
            checker.setInfoStream(new PrintStream(log, true, StandardCharsets.UTF_8));
            CheckIndex.Status status = checker.checkIndex();
            assertTrue(
                    "CheckIndex found " + what + " not clean:\n" + log.toString(StandardCharsets.UTF_8), status.clean);
        }
    }
}
