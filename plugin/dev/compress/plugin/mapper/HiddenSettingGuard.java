package dev.compress.plugin.mapper;

import dev.compress.plugin.CompressSettings;
import java.util.function.Supplier;
import org.opensearch.action.ActionRequest;
import org.opensearch.action.admin.indices.settings.put.UpdateSettingsAction;
import org.opensearch.action.admin.indices.settings.put.UpdateSettingsRequest;
import org.opensearch.action.support.ActionFilter;
import org.opensearch.action.support.ActionFilterChain;
import org.opensearch.cluster.ClusterState;
import org.opensearch.cluster.metadata.IndexMetadata;
import org.opensearch.cluster.metadata.IndexNameExpressionResolver;
import org.opensearch.core.action.ActionListener;
import org.opensearch.core.action.ActionResponse;
import org.opensearch.core.index.Index;
import org.opensearch.tasks.Task;

/**
 * Refuses {@code index.hidden: true} on an index created with {@code index.compress: true}, with a
 * 400 naming both. A hidden index is never given our codec, and its {@code compressed_vector}
 * mappings are refused: hidden afterwards, one of ours would keep a mapping that its own parser
 * refuses and a codec it is no longer given.
 */
public final class HiddenSettingGuard implements ActionFilter {

    private final Supplier<ClusterState> state;
    private final Supplier<IndexNameExpressionResolver> resolver;

    /** Suppliers: filters are created before the cluster service and the resolver are handed to the plugin. */
    public HiddenSettingGuard(Supplier<ClusterState> state, Supplier<IndexNameExpressionResolver> resolver) {
        this.state = state;
        this.resolver = resolver;
    }

    @Override
    public int order() {
        return 0;
    }

    @Override
    public <Request extends ActionRequest, Response extends ActionResponse> void apply(
            Task task,
            String action,
            Request request,
            ActionListener<Response> listener,
            ActionFilterChain<Request, Response> chain) {
        if (UpdateSettingsAction.NAME.equals(action)
                && request instanceof UpdateSettingsRequest update
                && update.settings().getAsBoolean(IndexMetadata.SETTING_INDEX_HIDDEN, false)) {
            ClusterState current = state.get();
            for (Index index : resolver.get().concreteIndices(current, update)) {
                IndexMetadata metadata = current.metadata().index(index);
                if (metadata != null && CompressSettings.INDEX_COMPRESS.get(metadata.getSettings())) {
                    listener.onFailure(new IllegalArgumentException("[" + IndexMetadata.SETTING_INDEX_HIDDEN
                            + "] cannot be set on index [" + index.getName() + "]: it was created with ["
                            + CompressSettings.INDEX_COMPRESS.getKey() + ": true], and hidden indexes have no "
                            + "compressed_vector fields"));
                    return;
                }
            }
        }
        chain.proceed(task, action, request, listener);
    }
}
