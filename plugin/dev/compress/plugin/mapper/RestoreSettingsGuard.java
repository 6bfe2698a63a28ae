package dev.compress.plugin.mapper;

import dev.compress.plugin.CompressSettings;
import org.opensearch.action.ActionRequest;
import org.opensearch.action.admin.cluster.snapshots.restore.RestoreSnapshotAction;
import org.opensearch.action.admin.cluster.snapshots.restore.RestoreSnapshotRequest;
import org.opensearch.action.support.ActionFilter;
import org.opensearch.action.support.ActionFilterChain;
import org.opensearch.cluster.metadata.IndexMetadata;
import org.opensearch.common.regex.Regex;
import org.opensearch.common.settings.Settings;
import org.opensearch.core.action.ActionListener;
import org.opensearch.core.action.ActionResponse;
import org.opensearch.tasks.Task;

/**
 * Refuses a snapshot restore that sets {@code index.compress} through {@code index_settings} or drops it
 * through {@code ignore_index_settings}, with a 400 naming the setting, as OpenSearch refuses a change of
 * {@code index.number_of_shards} on restore. The setting is final: OpenSearch does not parse a restored
 * index's mappings again before its shards start, so an index restored with its value changed keeps
 * mappings its own settings refuse, and every shard fails to start.
 */
public final class RestoreSettingsGuard implements ActionFilter {

    private static final String KEY = CompressSettings.INDEX_COMPRESS.getKey();

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
        if (RestoreSnapshotAction.NAME.equals(action) && request instanceof RestoreSnapshotRequest restore) {
            String refusal = refusal(restore);
            if (refusal != null) {
                listener.onFailure(new IllegalArgumentException(refusal));
                return;
            }
        }
        chain.proceed(task, action, request, listener);
    }

    /** Why the restore is refused, or null. */
    private static String refusal(RestoreSnapshotRequest restore) {
        // the restore reads index_settings keys with the index. prefix added where it is missing
        Settings changed = Settings.builder()
                .put(restore.indexSettings())
                .normalizePrefix(IndexMetadata.INDEX_SETTING_PREFIX)
                .build();
        if (changed.hasValue(KEY)) {
            return "cannot set [" + KEY + "] on restore: it is fixed when an index is created; restore the index "
                    + "as it was and _reindex it into an index created with the value you want";
        }
        for (String ignored : restore.ignoreIndexSettings()) {
            if (ignored.equals(KEY) || (Regex.isSimpleMatchPattern(ignored) && Regex.simpleMatch(ignored, KEY))) {
                return "cannot ignore [" + KEY + "] on restore (ignore_index_settings [" + ignored + "]): it is fixed "
                        + "when an index is created, and an index of compressed_vector fields needs it";
            }
        }
        return null;
    }
}
