package dev.compress.plugin.info;

import java.io.IOException;
import org.opensearch.action.ActionRequest;
import org.opensearch.action.ActionRequestValidationException;
import org.opensearch.core.common.io.stream.StreamInput;

/** The info request has no parameters. */
public final class InfoRequest extends ActionRequest {

    public InfoRequest() {}

    public InfoRequest(StreamInput in) throws IOException {
        super(in);
    }

    @Override
    public ActionRequestValidationException validate() {
        return null;
    }
}
