package dev.compress.plugin.model.action;

import dev.compress.plugin.model.ModelFields;
import dev.compress.plugin.model.ModelRecord;
import java.io.IOException;
import java.util.Base64;
import java.util.Map;
import org.opensearch.core.action.ActionResponse;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.xcontent.ToXContentObject;
import org.opensearch.core.xcontent.XContentBuilder;

/**
 * {@code GET _plugins/compress/models/{id}}: the model's state document as stored, but for its
 * {@code doc_type} (every document the API shows is a model), and with {@code include_weights}
 * the model file, base64 in {@value #MODEL_FILE}. The document is shown whole rather than field by
 * field: it holds what the job wrote ({@code progress}, {@code evaluation}, the {@code request}
 * as sent), which only the job's code knows the shape of.
 */
public final class GetModelResponse extends ActionResponse implements ToXContentObject {

    public static final String MODEL_FILE = "model_file";

    private final ModelRecord model;
    private final byte[] modelFile;

    /** @param modelFile the model file, or null when the request did not ask for it */
    public GetModelResponse(ModelRecord model, byte[] modelFile) {
        this.model = model;
        this.modelFile = modelFile;
    }

    public GetModelResponse(StreamInput in) throws IOException {
        super(in);
        model = new ModelRecord(in.readString(), in.readMap());
        modelFile = in.readBoolean() ? in.readByteArray() : null;
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        out.writeString(model.id());
        out.writeMap(model.source());
        out.writeBoolean(modelFile != null);
        if (modelFile != null) {
            out.writeByteArray(modelFile);
        }
    }

    public ModelRecord model() {
        return model;
    }

    /** The model file, or null when it was not asked for. */
    public byte[] modelFile() {
        return modelFile;
    }

    @Override
    public XContentBuilder toXContent(XContentBuilder builder, Params params) throws IOException {
        builder.startObject();
        for (Map.Entry<String, Object> field : model.source().entrySet()) {
            if (ModelFields.DOC_TYPE.equals(field.getKey()) == false) {
                builder.field(field.getKey(), field.getValue());
            }
        }
        if (modelFile != null) {
            builder.field(MODEL_FILE, Base64.getEncoder().encodeToString(modelFile));
        }
        return builder.endObject();
    }
}
