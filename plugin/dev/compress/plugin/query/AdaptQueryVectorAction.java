package dev.compress.plugin.query;

import org.opensearch.action.ActionType;

/**
 * Passes a raw query vector through a stored model on the node that receives it (the coordinating
 * node, from {@code compressed_knn}'s rewrite), using that node's model cache.
 */
public final class AdaptQueryVectorAction extends ActionType<AdaptQueryVectorResponse> {

    public static final String NAME = "cluster:admin/compress/model/adapt";
    public static final AdaptQueryVectorAction INSTANCE = new AdaptQueryVectorAction();

    private AdaptQueryVectorAction() {
        super(NAME, AdaptQueryVectorResponse::new);
    }
}
