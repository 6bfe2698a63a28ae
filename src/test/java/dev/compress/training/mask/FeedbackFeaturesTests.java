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
    public void theInputIsTheQueryThenItsProductsWithTheFeedbackMeansByHand() {
        float[] q = {0.6f, 0.8f};
        float[][] positives = {{1, 0}, {0, 1}};
        float[][] negatives = {{0, -1}};
        float s = (float) Math.sqrt(2);
        // p = (0.5, 0.5), n = (0, -1)
        assertArrayEquals(
                new float[] {0.6f, 0.8f, s * 0.3f, s * 0.4f, 0, -s * 0.8f},
                FeedbackFeatures.of(q, positives, negatives),
                1e-6f);
        // no negatives (a first pass of one hit): zeros in their place
        assertArrayEquals(
                new float[] {0.6f, 0.8f, s * 0.6f, 0, 0, 0},
                FeedbackFeatures.of(q, new float[][] {{1, 0}}, new float[0][]),
                1e-6f);
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> FeedbackFeatures.of(q, new float[][] {{1, 0, 0}}, new float[0][]));
        assertEquals("a feedback document has 3 dimensions, the query 2", e.getMessage());
    }

    /** The first pass ranks the corpus by dot product; the top documents and the tail of the list are the feedback. */
    @Test
    public void theFeedbackComesFromTheQuerysExactFirstPass() {
        VectorSet queries = new VectorSet(List.of("q"), new float[] {1, 0}, 2);
        // dot products with q: 0.9, 0.5, 0.1, -0.2, -0.7
        float[][] rows = {{0.5f, 0.5f}, {-0.2f, 0.3f}, {0.9f, -0.1f}, {0.1f, 0.8f}, {-0.7f, 0.2f}};
        VectorSet corpus = VectorSet.ofRows(List.of("a", "b", "c", "d", "e"), rows);
        // top 1 is c; a first pass 4 deep (c, a, d, b) has its last 2 (d, b) as negatives; e is below the depth
        VectorSet inputs = FeedbackFeatures.of(queries, corpus, new MaskEvaluation.Prf(1, 2, 4));
        assertArrayEquals(
                FeedbackFeatures.of(new float[] {1, 0}, new float[][] {rows[2]}, new float[][] {rows[3], rows[1]}),
                inputs.row(0),
                0f);
        assertEquals(6, inputs.dim());
    }

    @Test
    public void aModelReadsFeedbackWhenItsInputIsThreeTimesItsScores() {
        assertTrue(FeedbackFeatures.readBy(model(12, 4)));
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
