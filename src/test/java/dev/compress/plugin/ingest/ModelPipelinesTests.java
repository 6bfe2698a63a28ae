package dev.compress.plugin.ingest;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.opensearch.cluster.ClusterName;
import org.opensearch.cluster.ClusterState;
import org.opensearch.cluster.metadata.Metadata;
import org.opensearch.common.xcontent.XContentType;
import org.opensearch.core.common.bytes.BytesArray;
import org.opensearch.ingest.IngestMetadata;
import org.opensearch.ingest.PipelineConfiguration;
import org.opensearch.test.OpenSearchTestCase;

/** Finding the pipelines that name a model, for the model DELETE's 409. */
public class ModelPipelinesTests extends OpenSearchTestCase {

    private static ClusterState withPipelines(Map<String, String> pipelines) {
        Map<String, PipelineConfiguration> configs = new LinkedHashMap<>();
        pipelines.forEach(
                (id, json) -> configs.put(id, new PipelineConfiguration(id, new BytesArray(json), XContentType.JSON)));
        return ClusterState.builder(new ClusterName("test"))
                .metadata(Metadata.builder().putCustom(IngestMetadata.TYPE, new IngestMetadata(configs)))
                .build();
    }

    public void testFindsTopLevelAndNestedUses() {
        ClusterState state = withPipelines(Map.of(
                "direct",
                        "{\"processors\":[{\"compress\":{\"model_id\":\"m1\",\"field\":\"a\",\"target_field\":\"b\"}}]}",
                "on-failure",
                        "{\"processors\":[{\"compress\":{\"truncate_to\":8,\"field\":\"a\",\"target_field\":\"b\","
                                + "\"on_failure\":[{\"compress\":{\"model_id\":\"m1\",\"field\":\"a\",\"target_field\":\"c\"}}]}}]}",
                "other-model",
                        "{\"processors\":[{\"compress\":{\"model_id\":\"m2\",\"field\":\"a\",\"target_field\":\"b\"}}]}",
                "not-ours", "{\"processors\":[{\"set\":{\"field\":\"model_id\",\"value\":\"m1\"}}]}"));
        assertEquals(List.of("direct", "on-failure"), ModelPipelines.using(state, "m1"));
        assertEquals(List.of("other-model"), ModelPipelines.using(state, "m2"));
        assertEquals(List.of(), ModelPipelines.using(state, "m3"));
    }

    public void testNoPipelinesAtAll() {
        assertEquals(
                List.of(),
                ModelPipelines.using(
                        ClusterState.builder(new ClusterName("test")).build(), "m1"));
    }
}
