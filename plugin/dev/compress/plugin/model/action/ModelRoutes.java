package dev.compress.plugin.model.action;

/**
 * The paths of the model REST API, shared by its handlers (one per operation, each mapping onto
 * its transport action in {@link ModelActions}).
 */
public final class ModelRoutes {

    private ModelRoutes() {}

    public static final String BASE = "/_plugins/compress";
    public static final String MODELS = BASE + "/models";
    /** The path parameter naming a model. */
    public static final String MODEL_ID = "model_id";
    /** One model: {@code /_plugins/compress/models/{model_id}}. */
    public static final String MODEL = MODELS + "/{" + MODEL_ID + "}";
}
