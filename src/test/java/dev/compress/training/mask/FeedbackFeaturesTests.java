package dev.compress.training.mask;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import dev.compress.training.data.VectorSet;
import dev.compress.training.model.LayerSpec;
import dev.compress.training.model.ModelMetadata;
import java.util.List;
import java.util.Map;
import org.junit.Test;

public class FeedbackFeaturesTests {

    @Test
    public void theInputIsTheQueryThenItsProductWithTheFeedbackMeanByHand() {
        float[] q = {0.6f, 0.8f};
        float s = (float) Math.sqrt(2);
        // p = (0.5, 0.5)
        assertArrayEquals(
                new float[] {0.6f, 0.8f, s * 0.3f, s * 0.4f},
                FeedbackFeatures.of(q, new float[][] {{1, 0}, {0, 1}}),
                1e-6f);
        assertArrayEquals(new float[] {0.6f, 0.8f, s * 0.6f, 0}, FeedbackFeatures.of(q, new float[][] {{1, 0}}), 1e-6f);
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> FeedbackFeatures.of(q, new float[][] {{1, 0, 0}}));
        assertEquals("feedback document has 3 dims, query has 2", e.getMessage());
    }

    /** The first pass ranks the corpus by dot product; its top documents are the feedback. */
    @Test
    public void theFeedbackComesFromTheQuerysExactFirstPass() {
        VectorSet queries = new VectorSet(List.of("q"), new float[] {1, 0}, 2);
        // dot products with q: 0.5, -0.2, 0.9, 0.1, -0.7
        float[][] rows = {{0.5f, 0.5f}, {-0.2f, 0.3f}, {0.9f, -0.1f}, {0.1f, 0.8f}, {-0.7f, 0.2f}};
        VectorSet corpus = VectorSet.ofRows(List.of("a", "b", "c", "d", "e"), rows);
        // the top 2 are c then a
        VectorSet inputs = FeedbackFeatures.of(queries, corpus, 2);
        assertArrayEquals(FeedbackFeatures.of(new float[] {1, 0}, new float[][] {rows[2], rows[0]}), inputs.row(0), 0f);
        assertEquals(4, inputs.dim());
        // deeper than the corpus: every document
        assertArrayEquals(
                FeedbackFeatures.of(new float[] {1, 0}, rows),
                FeedbackFeatures.of(queries, corpus, 9).row(0),
                1e-6f);
    }

    @Test
    public void aModelReadsFeedbackWhenItsInputIsTwiceItsScores() {
        assertTrue(FeedbackFeatures.readBy(model(8, 4)));
        assertFalse(FeedbackFeatures.readBy(model(4, 4)));
    }

    private static ModelMetadata model(int in, int out) {
        return new ModelMetadata(
                "query_mask",
                in,
                List.of(out),
                ModelMetadata.OUTPUT_DIMENSION_SCORES,
                ModelMetadata.NORM_NONE,
                1,
                List.of(LayerSpec.linear("scores", in, out)),
                Map.of(),
                Map.of(),
                Map.of());
    }
}
