package dev.compress.plugin.model.action;

import org.opensearch.action.ActionType;
import org.opensearch.action.search.SearchResponse;

/** The model API's actions; each name is a permission the security plugin can grant. */
public final class ModelActions {

    private ModelActions() {}

    public static final ActionType<MapResponse> TRAIN = new ActionType<>("cluster:admin/compress/model/train", MapResponse::new);
    /** Sent by the coordinating node to the node chosen to run a training job. */
    public static final ActionType<MapResponse> RUN_TRAINING = new ActionType<>("cluster:admin/compress/model/train/run", MapResponse::new);
    /** Sent to the node a model names, to ask whether a job of the model runs there ({@code running}: true or false). */
    public static final ActionType<MapResponse> JOB_RUNNING = new ActionType<>("cluster:admin/compress/model/train/running", MapResponse::new);
    public static final ActionType<MapResponse> GET = new ActionType<>("cluster:admin/compress/model/get", MapResponse::new);
    public static final ActionType<SearchResponse> SEARCH = new ActionType<>("cluster:admin/compress/model/search", SearchResponse::new);
    public static final ActionType<MapResponse> DELETE = new ActionType<>("cluster:admin/compress/model/delete", MapResponse::new);
    public static final ActionType<MapResponse> CANCEL = new ActionType<>("cluster:admin/compress/model/cancel", MapResponse::new);
}
