package dev.compress.plugin.model.action;

import dev.compress.plugin.model.ModelFields;
import dev.compress.plugin.model.ModelState;
import java.io.IOException;
import org.opensearch.common.xcontent.StatusToXContentObject;
import org.opensearch.core.action.ActionResponse;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.rest.RestStatus;
import org.opensearch.core.xcontent.XContentBuilder;

/**
 * {@code POST _plugins/compress/models/{id}/_cancel} has two answers, told apart by their status:
 * 202 {@code {"model_id": .., "cancel_requested": true}} when the flag is written and the job
 * will stop (the model is still {@code training}), and 200
 * {@code {"model_id": .., "state": "failed", "error": ..}} when no job would ever read the flag
 * and the model was failed at once ({@link TransportCancelTrainingAction}).
 */
public final class CancelTrainingResponse extends ActionResponse implements StatusToXContentObject {

    private final String modelId;
    /** Why the model was failed at once; null when the cancel was requested of its job. */
    private final String failedWith;

    private CancelTrainingResponse(String modelId, String failedWith) {
        this.modelId = modelId;
        this.failedWith = failedWith;
    }

    /** The flag is written: the job stops within seconds and leaves the model {@code failed}. */
    public static CancelTrainingResponse requested(String modelId) {
        return new CancelTrainingResponse(modelId, null);
    }

    /** No job runs the model: it is {@code failed} with {@code reason} now. */
    public static CancelTrainingResponse failed(String modelId, String reason) {
        return new CancelTrainingResponse(modelId, reason);
    }

    public CancelTrainingResponse(StreamInput in) throws IOException {
        super(in);
        modelId = in.readString();
        failedWith = in.readOptionalString();
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        out.writeString(modelId);
        out.writeOptionalString(failedWith);
    }

    public String modelId() {
        return modelId;
    }

    /** True when the job was asked to stop; false when the model was failed at once. */
    public boolean cancelRequested() {
        return failedWith == null;
    }

    /** The reason the model was failed with; null when {@link #cancelRequested()}. */
    public String error() {
        return failedWith;
    }

    @Override
    public RestStatus status() {
        return cancelRequested() ? RestStatus.ACCEPTED : RestStatus.OK;
    }

    @Override
    public XContentBuilder toXContent(XContentBuilder builder, Params params) throws IOException {
        builder.startObject();
        builder.field(ModelFields.MODEL_ID, modelId);
        if (cancelRequested()) {
            builder.field(ModelFields.CANCEL_REQUESTED, true);
        } else {
            builder.field(ModelFields.STATE, ModelState.FAILED.jsonName());
            builder.field(ModelFields.ERROR, failedWith);
        }
        return builder.endObject();
    }
}
