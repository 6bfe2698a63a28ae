package dev.compress.plugin.model;

import static dev.compress.plugin.model.ModelFields.CANCEL_REQUESTED;
import static dev.compress.plugin.model.ModelFields.CHUNK_COUNT;
import static dev.compress.plugin.model.ModelFields.CREATED_AT;
import static dev.compress.plugin.model.ModelFields.DIMENSIONS;
import static dev.compress.plugin.model.ModelFields.ERROR;
import static dev.compress.plugin.model.ModelFields.INPUT_DIMENSION;
import static dev.compress.plugin.model.ModelFields.MODEL_SIZE_BYTES;
import static dev.compress.plugin.model.ModelFields.NODE_ID;
import static dev.compress.plugin.model.ModelFields.STATE;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A model's state document as stored in the model index. The index is a document store, and a
 * document can lack a field or hold one of another type (written by hand, by a restore, by an
 * earlier version): the fields the plugin acts on ({@code state}, {@code node_id},
 * {@code created_at}) are checked when read and throw {@link UnreadableModelException} naming the
 * field and what it holds, so a caller can tell such a document from a failure of its own.
 * Field names are {@link ModelFields}'.
 */
public record ModelRecord(String id, Map<String, Object> source) {

    /** A field of a model document is missing or not of its type. */
    public static final class UnreadableModelException extends IllegalStateException {
        UnreadableModelException(String modelId, String field, Object value, String expected) {
            super("model [" + modelId + "] has "
                    + (value == null ? "no [" + field + "]" : "[" + field + "] [" + value + "], not " + expected));
        }
    }

    public ModelState state() {
        String state = required(STATE, String.class, "a string");
        try {
            return ModelState.fromJson(state);
        } catch (IllegalArgumentException e) {
            throw new UnreadableModelException(id, STATE, state, "one of [training, created, failed]");
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

    public String nodeId() {
        return required(NODE_ID, String.class, "a string");
    }

    public long createdAtMillis() {
        return required(CREATED_AT, Number.class, "a number").longValue();
    }

    /** The training job this document was created for. */
    public ModelIndex.Job job() {
        return new ModelIndex.Job(id, createdAtMillis());
    }

    public int inputDimension() {
        return ((Number) source.get(INPUT_DIMENSION)).intValue();
    }

    @SuppressWarnings("unchecked")
    public List<Integer> dimensions() {
        return ((List<Number>) source.get(DIMENSIONS))
                .stream().map(Number::intValue).toList();
    }

    /** Why a {@code failed} model failed; null when the document has no reason. */
    public String error() {
        Object error = source.get(ERROR);
        return error == null ? null : String.valueOf(error);
    }

    public boolean cancelRequested() {
        return Boolean.TRUE.equals(source.get(CANCEL_REQUESTED));
    }

    public int chunkCount() {
        return (int) count(CHUNK_COUNT, Integer.MAX_VALUE);
    }

    /** At most what one byte array holds: the file is reassembled in one. */
    public long modelSizeBytes() {
        return count(MODEL_SIZE_BYTES, Integer.MAX_VALUE - 8);
    }

    /** A whole number from 0 to {@code max}; 0 when absent. */
    private long count(String field, long max) {
        Object value = source.get(field);
        if (value == null) {
            return 0;
        }
        if (value instanceof Integer || value instanceof Long) {
            long n = ((Number) value).longValue();
            if (n >= 0 && n <= max) {
                return n;
            }
        }
        throw new UnreadableModelException(id, field, value, "a whole number from 0 to " + max);
    }

    /**
     * Whether {@code other} is the document of the same training job in the same state: the same
     * {@code state}, {@code node_id} and {@code created_at}, compared as stored, so that documents
     * whose fields cannot be read compare too.
     */
    public boolean sameJobAndState(ModelRecord other) {
        for (String field : new String[] {STATE, NODE_ID, CREATED_AT}) {
            if (Objects.equals(source.get(field), other.source.get(field)) == false) {
                return false;
            }
        }
        return true;
    }

    private <T> T required(String field, Class<T> type, String expected) {
        Object value = source.get(field);
        if (type.isInstance(value) == false) {
            throw new UnreadableModelException(id, field, value, expected);
        }
        return type.cast(value);
    }
}
