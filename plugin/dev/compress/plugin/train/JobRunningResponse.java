package dev.compress.plugin.train;

import java.io.IOException;
import org.opensearch.core.action.ActionResponse;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;

/** A node's answer to whether a job of a model runs (or waits to) there ({@link JobPresence}); between nodes only. */
public final class JobRunningResponse extends ActionResponse {

    private final boolean running;

    public JobRunningResponse(boolean running) {
        this.running = running;
    }

    public JobRunningResponse(StreamInput in) throws IOException {
        super(in);
        running = in.readBoolean();
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        out.writeBoolean(running);
    }

    public boolean running() {
        return running;
    }
}
