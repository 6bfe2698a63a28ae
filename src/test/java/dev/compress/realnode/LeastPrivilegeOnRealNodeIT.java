package dev.compress.realnode;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import dev.compress.harness.RealNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * The plugin's security policy grants no file access, so OpenSearch's security agent keeps it to what
 * the node lets every plugin write (its data paths and temporary directory): a DJL cache directory
 * elsewhere is refused, the training engine does not load and says why, and the node still starts
 * and serves. Run on a node of its own, since the setting is read at start.
 */
public class LeastPrivilegeOnRealNodeIT {

    private static RealNode node;
    private static Path outside;

    @BeforeClass
    public static void startNode() throws Exception {
        node = RealNode.withPluginsBefore("least-privilege", List.of(), "512m");
        outside = node.home().resolve("djl-outside-data-paths");
        Files.writeString(
                node.home().resolve("config/opensearch.yml"),
                "compress.djl.cache_dir: " + outside + "\n",
                StandardOpenOption.APPEND);
        node.start();
    }

    @AfterClass
    public static void stopNode() throws Exception {
        if (node != null) {
            node.close();
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    public void aCacheDirectoryOutsideTheDataPathsIsRefused() throws Exception {
        Map<String, Object> info = node.call("GET", "/_plugins/compress", null);
        Map<String, Object> engine = (Map<String, Object>) info.get("training_engine");
        assertEquals(String.valueOf(info), false, engine.get("loaded"));
        String error = String.valueOf(engine.get("error"));
        assertTrue(
                error, error.contains(outside.toString()) || error.toLowerCase().contains("denied"));
        assertFalse("nothing was extracted there", Files.exists(outside.resolve("pytorch")));
        assertEquals("green", node.call("GET", "/_cluster/health", null).get("status"));
    }
}
