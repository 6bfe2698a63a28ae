package dev.compress.plugin.query;

import java.io.IOException;
import org.opensearch.action.ActionRequest;
import org.opensearch.action.ActionRequestValidationException;
import org.opensearch.action.OriginalIndices;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;

/**
 * A raw vector, the model to pass it through, and optionally which of the model's output dimensions to keep; without
 * one, the field searched and the search's indices, whose mappings say which output fits.
 */
public final class AdaptQueryVectorRequest extends ActionRequest {

    private final String modelId;
    private final Integer dimension;
    private final float[] vector;
    private final String field;
    private final OriginalIndices searched;

    /**
     * @param searched the search's indices and their options; null where the query is rewritten outside a search
     */
    public AdaptQueryVectorRequest(
            String modelId, Integer dimension, float[] vector, String field, OriginalIndices searched) {
        this.modelId = modelId;
        this.dimension = dimension;
        this.vector = vector;
        this.field = field;
        this.searched = searched;
    }

    public AdaptQueryVectorRequest(StreamInput in) throws IOException {
        super(in);
        modelId = in.readString();
        dimension = in.readOptionalVInt();
        vector = in.readFloatArray();
        field = in.readString();
        searched = in.readBoolean() ? OriginalIndices.readOriginalIndices(in) : null;
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        super.writeTo(out);
        out.writeString(modelId);
        out.writeOptionalVInt(dimension);
        out.writeFloatArray(vector);
        out.writeString(field);
        out.writeBoolean(searched != null);
        if (searched != null) {
            OriginalIndices.writeOriginalIndices(searched, out);
        }
    }

    @Override
    public ActionRequestValidationException validate() {
        return null;
    }

    public String modelId() {
        return modelId;
    }

    public Integer dimension() {
        return dimension;
    }

    public float[] vector() {
        return vector;
    }

    public String field() {
        return field;
    }

    /** The search's indices and their options; null where the query is rewritten outside a search. */
    public OriginalIndices searched() {
        return searched;
    }
}
