package dev.compress.plugin.query.mask;

import java.io.IOException;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.common.io.stream.Writeable;

/**
 * The unit vectors of a query's first-pass feedback documents, in rank order: the top ones taken as relevant and
 * the tail ones taken as irrelevant (empty when the mask takes none). Both are empty when the first pass found
 * nothing.
 */
public record Feedback(float[][] positives, float[][] negatives) implements Writeable {

    public Feedback(StreamInput in) throws IOException {
        this(readRows(in), readRows(in));
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        writeRows(out, positives);
        writeRows(out, negatives);
    }

    private static float[][] readRows(StreamInput in) throws IOException {
        float[][] rows = new float[in.readVInt()][];
        for (int i = 0; i < rows.length; i++) {
            rows[i] = in.readFloatArray();
        }
        return rows;
    }

    private static void writeRows(StreamOutput out, float[][] rows) throws IOException {
        out.writeVInt(rows.length);
        for (float[] row : rows) {
            out.writeFloatArray(row);
        }
    }
}
