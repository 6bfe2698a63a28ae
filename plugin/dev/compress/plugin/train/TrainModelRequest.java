package dev.compress.plugin.train;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.opensearch.action.ActionRequest;
import org.opensearch.action.ActionRequestValidationException;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.xcontent.XContentParser;

/**
 * A training request: the user's JSON body (kept as sent, so it travels and is stored verbatim),
 * the model id (chosen by the user or generated), and once placed, the input dimension and when
 * the model document was created (which tells this job from a later one of the same model id).
 */
public final class TrainModelRequest extends ActionRequest {

    /** Leaves room for the chunk suffix within a document id's 512 bytes. */
    static final int MAX_MODEL_ID_BYTES = 256;

    private final String modelId;
    private final Map<String, Object> body;
    private final int inputDim;
    private final long createdAtMillis;

    /** A user's request; {@code modelId} may be null (generated). */
    public TrainModelRequest(String modelId, Map<String, Object> body) {
        this(modelId, body, 0, 0);
    }

    /** A placed job: its model document exists, created at {@code createdAtMillis}. */
    public TrainModelRequest(String modelId, Map<String, Object> body, int inputDim, long createdAtMillis) {
        this.modelId = modelId;
        this.body = body;
        this.inputDim = inputDim;
        this.createdAtMillis = createdAtMillis;
    }

    public TrainModelRequest(StreamInput in) throws IOException {
        super(in);
        modelId = in.readOptionalString();
        body = in.readMap();
        inputDim = in.readVInt();
        createdAtMillis = in.readLong();
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        super.writeTo(out);
        out.writeOptionalString(modelId);
        out.writeMap(body);
        out.writeVInt(inputDim);
        out.writeLong(createdAtMillis);
    }

    public String modelId() {
        return modelId;
    }

    public Map<String, Object> body() {
        return body;
    }

    public int inputDim() {
        return inputDim;
    }

    public long createdAtMillis() {
        return createdAtMillis;
    }

    public TrainSpec spec() {
        return TrainSpec.parse(body);
    }

    /**
     * Why a user's model id cannot be used, or null. A model id is a document id of the model index:
     * a blank one is refused by every API that reads a model, a {@code #} could collide with another
     * model's chunk ids ({@code <id>#<created_at>#<n>}), and a leading {@code _} with the API's own
     * paths ({@code models/_search}). Checked where a user's request
     * enters, not in {@link #validate()}: the request also carries generated ids between nodes, and
     * a random base64 id may start with {@code _}.
     */
    static String modelIdProblem(String modelId) {
        if (modelId.isEmpty()) {
            return "must not be empty";
        }
        if (modelId.isBlank()) {
            return "must not be blank";
        }
        if (modelId.startsWith("_")) {
            return "must not start with [_]";
        }
        if (modelId.contains("#")) {
            return "must not contain [#]";
        }
        return modelId.getBytes(StandardCharsets.UTF_8).length > MAX_MODEL_ID_BYTES
                ? "must be at most " + MAX_MODEL_ID_BYTES + " bytes"
                : null;
    }

    /**
     * Reads a user's {@code _train} body: a JSON object, whose numbers are all finite. Reading an
     * object out of anything else would give an empty one, and the answer would be that
     * {@code [corpus]} is required; a NaN or an infinity would reach range checks that do not all
     * refuse it (a seed of Infinity is {@code Long.MAX_VALUE}).
     */
    public static Map<String, Object> readBody(XContentParser parser) throws IOException {
        XContentParser.Token first = parser.currentToken() == null ? parser.nextToken() : parser.currentToken();
        if (first != XContentParser.Token.START_OBJECT) {
            String got = first == XContentParser.Token.START_ARRAY
                    ? "the array " + parser.list()
                    : first == null ? "nothing" : "the value [" + parser.objectText() + "]";
            throw new IllegalArgumentException("the body of _train must be a JSON object, got " + got);
        }
        Map<String, Object> body = parser.mapOrdered();
        requireFinite("", body);
        return body;
    }

    /** Throws naming the field ({@code parameters.margin}) of the first NaN or infinity within {@code value}. */
    private static void requireFinite(String field, Object value) {
        if (value instanceof Map<?, ?> map) {
            map.forEach(
                    (key, child) -> requireFinite(field.isEmpty() ? String.valueOf(key) : field + "." + key, child));
        } else if (value instanceof List<?> list) {
            for (Object element : list) {
                if (element instanceof Map<?, ?> || element instanceof List<?>) {
                    requireFinite(field, element);
                } else if (finite(element) == false) {
                    throw new IllegalArgumentException(
                            "[" + field + "] must hold finite numbers, got [" + element + "]");
                }
            }
        } else if (finite(value) == false) {
            throw new IllegalArgumentException("[" + field + "] must be a finite number, got [" + value + "]");
        }
    }

    private static boolean finite(Object value) {
        if (value instanceof Double d) {
            return Double.isFinite(d);
        }
        if (value instanceof Float f) {
            return Float.isFinite(f);
        }
        return true;
    }

    @Override
    public ActionRequestValidationException validate() {
        return null;
    }
}
