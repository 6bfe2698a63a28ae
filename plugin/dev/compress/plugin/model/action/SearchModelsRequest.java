package dev.compress.plugin.model.action;

import java.io.IOException;
import org.opensearch.action.ActionRequest;
import org.opensearch.action.ActionRequestValidationException;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.search.builder.SearchSourceBuilder;

/** {@code POST _plugins/compress/models/_search}: a search body over model state documents. */
public final class SearchModelsRequest extends ActionRequest {

    private final SearchSourceBuilder source;

    public SearchModelsRequest(SearchSourceBuilder source) {
        this.source = source;
    }

    public SearchModelsRequest(StreamInput in) throws IOException {
        super(in);
        source = new SearchSourceBuilder(in);
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        super.writeTo(out);
        source.writeTo(out);
    }

    public SearchSourceBuilder source() {
        return source;
    }

    @Override
    public ActionRequestValidationException validate() {
        return null;
    }
}
