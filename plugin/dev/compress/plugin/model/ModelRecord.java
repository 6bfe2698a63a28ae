package dev.compress.plugin.model;

import java.util.List;
import java.util.Map;

/** A model's state document as stored in the model index. */
public record ModelRecord(String id, Map<String, Object> source) {

    public ModelState state() {
        return ModelState.fromJson((String) source.get("state"));
    }

    public String method() {
        return (String) source.get("method");
    }

    public String nodeId() {
        return (String) source.get("node_id");
    }

    public long createdAtMillis() {
        return ((Number) source.get("created_at")).longValue();
    }

    /** The training job this document was created for. */
    public ModelIndex.Job job() {
        return new ModelIndex.Job(id, createdAtMillis());
    }

    public int inputDimension() {
        return ((Number) source.get("input_dimension")).intValue();
    }

    @SuppressWarnings("unchecked")
    public List<Integer> dimensions() {
        return ((List<Number>) source.get("dimensions")).stream().map(Number::intValue).toList();
    }

    public boolean cancelRequested() {
        return Boolean.TRUE.equals(source.get("cancel_requested"));
    }

    public int chunkCount() {
        Object n = source.get("chunk_count");
        return n == null ? 0 : ((Number) n).intValue();
    }

    public long modelSizeBytes() {
        Object n = source.get("model_size_bytes");
        return n == null ? 0 : ((Number) n).longValue();
    }
}
