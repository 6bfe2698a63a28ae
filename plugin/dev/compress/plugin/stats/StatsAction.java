package dev.compress.plugin.stats;

import org.opensearch.action.ActionType;

/** {@code GET _plugins/compress/stats}: the plugin's statistics, cluster-level and per node. */
public final class StatsAction extends ActionType<StatsResponse> {

    public static final String NAME = "cluster:monitor/compress/stats";
    public static final StatsAction INSTANCE = new StatsAction();

    private StatsAction() {
        super(NAME, StatsResponse::new);
    }
}
