package dev.compress.plugin.model;

/**
 * The field names of the documents in the model index, in one place: the index's strict mapping
 * ({@link ModelIndex}), the writers (the training node, the jobs, cancel and the sweeps) and the
 * readers ({@link ModelRecord}) must agree on every one, and a name misspelt in one of them would
 * only show as a mapping error or a field read as missing. The names are stored data and the
 * model API's JSON: renaming one breaks the documents already stored.
 */
public final class ModelFields {

    private ModelFields() {}

    /** {@value #MODEL_DOC} for a state document, {@value #CHUNK_DOC} for a piece of a model file. */
    public static final String DOC_TYPE = "doc_type";

    public static final String MODEL_DOC = "model";
    public static final String CHUNK_DOC = "chunk";

    /** The model's id; in a chunk document, the model the chunk belongs to. */
    public static final String MODEL_ID = "model_id";

    // state documents
    /** {@link ModelState#jsonName()}. */
    public static final String STATE = "state";

    public static final String METHOD = "method";
    public static final String DESCRIPTION = "description";
    public static final String INPUT_DIMENSION = "input_dimension";
    public static final String DIMENSIONS = "dimensions";
    /** The node running (or that ran) the training job, by id and by name. */
    public static final String NODE_ID = "node_id";

    public static final String NODE_NAME = "node_name";
    /** Milliseconds since the epoch; {@code created_at} also tells one training job of an id from a later one. */
    public static final String CREATED_AT = "created_at";

    public static final String UPDATED_AT = "updated_at";
    /** Why a {@code failed} model failed. */
    public static final String ERROR = "error";

    public static final String CHUNK_COUNT = "chunk_count";
    public static final String MODEL_SIZE_BYTES = "model_size_bytes";
    /** The {@code _train} body, as sent. */
    public static final String REQUEST = "request";

    public static final String PROGRESS = "progress";
    public static final String EVALUATION = "evaluation";
    public static final String CANCEL_REQUESTED = "cancel_requested";

    // chunk documents
    /** A chunk's position in the model file, from 0. */
    public static final String CHUNK = "chunk";

    public static final String DATA = "data";
}
