package dev.compress.plugin.warmup;

import org.opensearch.action.ActionType;

/** {@code GET _plugins/compress/warmup/{index}}: reads the indexes' vector files into each node's page cache. */
public final class WarmupAction extends ActionType<WarmupResponse> {

    public static final String NAME = "indices:admin/compress/warmup";
    public static final WarmupAction INSTANCE = new WarmupAction();

    private WarmupAction() {
        super(NAME, WarmupResponse::new);
    }
}
