package dev.compress.plugin.info;

import dev.compress.plugin.PluginVersion;
import dev.compress.training.engine.DjlRuntime;
import dev.compress.training.engine.EngineStatus;
import org.apache.lucene.util.Version;
import org.opensearch.action.support.ActionFilters;
import org.opensearch.action.support.HandledTransportAction;
import org.opensearch.cluster.service.ClusterService;
import org.opensearch.common.inject.Inject;
import org.opensearch.core.action.ActionListener;
import org.opensearch.secure_sm.AccessController;
import org.opensearch.tasks.Task;
import org.opensearch.threadpool.ThreadPool;
import org.opensearch.transport.TransportService;

/** Answers on the receiving node; loading the engine may take seconds, so it runs off the transport thread. */
public final class TransportInfoAction extends HandledTransportAction<InfoRequest, InfoResponse> {

    private final ClusterService clusterService;
    private final ThreadPool threadPool;

    @Inject
    public TransportInfoAction(
            TransportService transportService,
            ActionFilters actionFilters,
            ClusterService clusterService,
            ThreadPool threadPool) {
        super(InfoAction.NAME, transportService, actionFilters, InfoRequest::new);
        this.clusterService = clusterService;
        this.threadPool = threadPool;
    }

    @Override
    protected void doExecute(Task task, InfoRequest request, ActionListener<InfoResponse> listener) {
        threadPool.generic().execute(() -> {
            try {
                // Loading extracts and maps libtorch: only the plugin's own permissions may count.
                EngineStatus engine = AccessController.doPrivileged(DjlRuntime::status);
                listener.onResponse(new InfoResponse(
                        clusterService.localNode().getName(), PluginVersion.get(), Version.LATEST.toString(), engine));
            } catch (Exception e) {
                listener.onFailure(e);
            }
        });
    }
}
