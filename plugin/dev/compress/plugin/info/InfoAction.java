package dev.compress.plugin.info;

import org.opensearch.action.ActionType;

/** {@code GET _plugins/compress}: plugin, Lucene and training-engine facts of the answering node. */
public final class InfoAction extends ActionType<InfoResponse> {

    public static final String NAME = "cluster:monitor/compress/info";
    public static final InfoAction INSTANCE = new InfoAction();

    private InfoAction() {
        super(NAME, InfoResponse::new);
    }
}
