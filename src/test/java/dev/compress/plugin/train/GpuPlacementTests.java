package dev.compress.plugin.train;

import dev.compress.plugin.CompressClusterTestCase;
import org.opensearch.common.settings.Settings;
import org.opensearch.test.OpenSearchIntegTestCase;

/**
 * Placement by {@code node.attr.compress_gpu} on two data nodes, one of them marked: {@code auto}
 * prefers the marked node, and {@code gpu} goes nowhere else, waiting (429) while the marked node is
 * busy rather than landing on a node without a GPU. This machine has no GPU, so the {@code gpu} job
 * then fails on the marked node with the engine's own message, which is how a mislabelled node
 * shows itself.
 */
@OpenSearchIntegTestCase.ClusterScope(scope = OpenSearchIntegTestCase.Scope.TEST, numDataNodes = 0, numClientNodes = 0)
public class GpuPlacementTests extends CompressClusterTestCase {

    public void testGpuJobsGoOnlyToTheMarkedNode() throws Exception {
        internalCluster().startNode();
        String marked = internalCluster()
                .startNode(Settings.builder().put("node.attr." + TransportTrainModelAction.GPU_ATTRIBUTE, "true"));
        ensureStableCluster(2);
        ScifactIndices.load(client());

        String longDive = TrainModelApiTests.trainBody("dive", 32, "{\"epochs\":500,\"patience\":0}");
        assertEquals(
                marked,
                restCall("POST", "/_plugins/compress/models/busy/_train", withDevice("auto", longDive))
                        .get("node"));
        String refused = restError(429, "POST", "/_plugins/compress/models/on-gpu/_train", withDevice("gpu", longDive));
        assertTrue(
                refused,
                refused.contains("every GPU data node is busy: node [" + marked + "] already runs 1 training job(s) "
                        + "([compress.training.max_jobs_per_node]); retry when one finishes"));
        restCall("POST", "/_plugins/compress/models/busy/_cancel", null);
        awaitState("busy", "failed");

        String oneEpoch = TrainModelApiTests.trainBody("dive", 32, "{\"epochs\":1}");
        assertEquals(
                marked,
                restCall("POST", "/_plugins/compress/models/on-gpu/_train", withDevice("gpu", oneEpoch))
                        .get("node"));
        String error = String.valueOf(awaitState("on-gpu", "failed").get("error"));
        assertTrue(error, error.contains("device 'gpu' requested but the engine sees no GPU"));
    }

    private static String withDevice(String device, String body) {
        return body.replace("{\"method\"", "{\"device\":\"" + device + "\",\"method\"");
    }
}
