package dev.compress.plugin.query.mask;

import org.opensearch.action.ActionType;

/**
 * Computes a {@code learned} mask for one query vector with a stored mask model, on the node that
 * receives it (the coordinating node, from {@code compressed_knn}'s rewrite), through that node's model cache.
 */
public final class LearnedMaskAction extends ActionType<LearnedMaskResponse> {

    public static final String NAME = "cluster:admin/compress/model/mask";
    public static final LearnedMaskAction INSTANCE = new LearnedMaskAction();

    private LearnedMaskAction() {
        super(NAME, LearnedMaskResponse::new);
    }
}
