package dev.compress.plugin.inference;

import org.opensearch.action.ActionType;

/**
 * Drops a model from the {@link ModelCache} of every node. The model DELETE calls it after removing
 * the model's documents: {@code client.execute(EvictModelAction.INSTANCE, new EvictModelRequest(id), listener)}.
 */
public final class EvictModelAction extends ActionType<EvictModelResponse> {

    public static final String NAME = "cluster:admin/compress/model/evict";
    public static final EvictModelAction INSTANCE = new EvictModelAction();

    private EvictModelAction() {
        super(NAME, EvictModelResponse::new);
    }
}
