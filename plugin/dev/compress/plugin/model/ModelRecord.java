package dev.compress.plugin.model;

import java.util.List;
import java.util.Map;

/**
 * A model's state document as stored in the model index. The index is a document store, and a
 * document can lack a field or hold one of another type (written by hand, by a restore, by an
 * earlier version): the fields the plugin acts on ({@code state}, {@code node_id},
 * {@code created_at}) are checked when read and throw {@link UnreadableModelException} naming the
 * field and what it holds, so a caller can tell such a document from a failure of its own.
 */
public record ModelRecord(String id, Map<String, Object> source) {

    /** A field of a model document is missing or not of its type. */
    public static final class UnreadableModelException extends IllegalStateException {
        UnreadableModelException(String modelId, String field, Object value, String expected) {
            super("model [" + modelId + "] has " + (value == null ? "no [" + field + "]" : "[" + field + "] [" + value + "], not " + expected));
        }
    }

    public ModelState state() {
        String state = required("state", String.class, "a string");
        try {
            return ModelState.fromJson(state);
        } catch (IllegalArgumentException e) {
            throw new UnreadableModelException(id, "state", state, "one of [training, created, failed]");
        }
    }

    /**
     * True when the model is {@code training}, or when its state cannot be read: neither is known
     * to have no job behind it, so whoever ends or deletes such a model first asks its node.
     */
    public boolean mayBeTraining() {
        try {
            return state() == ModelState.TRAINING;
        } catch (UnreadableModelException e) {
            return true;
        }
    }

    public String method() {
        return (String) source.get("method");
    }

    public String nodeId() {
        return required("node_id", String.class, "a string");
    }

    public long createdAtMillis() {
        return required("created_at", Number.class, "a number").longValue();
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

    private <T> T required(String field, Class<T> type, String expected) {
        Object value = source.get(field);
        if (type.isInstance(value) == false) {
            throw new UnreadableModelException(id, field, value, expected);
        }
        return type.cast(value);
    }
}
