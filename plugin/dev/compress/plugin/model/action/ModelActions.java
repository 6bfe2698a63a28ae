package dev.compress.plugin.model.action;

import dev.compress.plugin.train.JobRunningResponse;
import dev.compress.plugin.train.TrainModelResponse;
import org.opensearch.action.ActionType;
import org.opensearch.action.search.SearchResponse;
import org.opensearch.action.support.clustermanager.AcknowledgedResponse;

/** The model API's actions; each name is a permission the security plugin can grant. */
public final class ModelActions {

    private ModelActions() {}

    public static final ActionType<TrainModelResponse> TRAIN =
            new ActionType<>("cluster:admin/compress/model/train", TrainModelResponse::new);
    /** Sent by the coordinating node to the node chosen to run a training job. */
    public static final ActionType<AcknowledgedResponse> RUN_TRAINING =
            new ActionType<>("cluster:admin/compress/model/train/run", AcknowledgedResponse::new);
    /** Sent to the node a model names, to ask whether a job of the model runs there. */
    public static final ActionType<JobRunningResponse> JOB_RUNNING =
            new ActionType<>("cluster:admin/compress/model/train/running", JobRunningResponse::new);

    public static final ActionType<GetModelResponse> GET =
            new ActionType<>("cluster:admin/compress/model/get", GetModelResponse::new);
    public static final ActionType<SearchResponse> SEARCH =
            new ActionType<>("cluster:admin/compress/model/search", SearchResponse::new);
    public static final ActionType<DeleteModelResponse> DELETE =
            new ActionType<>("cluster:admin/compress/model/delete", DeleteModelResponse::new);
    public static final ActionType<CancelTrainingResponse> CANCEL =
            new ActionType<>("cluster:admin/compress/model/cancel", CancelTrainingResponse::new);
}
