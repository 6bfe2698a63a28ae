package dev.compress.plugin.query.mask;

import java.io.IOException;
import org.opensearch.common.io.stream.BytesStreamOutput;
import org.opensearch.test.OpenSearchTestCase;

/** The learned-mask action's request and response survive the wire, with and without feedback. */
public class LearnedMaskWireTests extends OpenSearchTestCase {

    private static final MaskSpec MASK = new MaskSpec(MaskType.LEARNED, 0.3, null, "qm", 1, 10, 1000, null);

    public void testRequestRoundTrip() throws IOException {
        Feedback feedback = new Feedback(new float[][] {{1, 0, 0}}, new float[][] {{0, 1, 0}, {0, 0, 1}});
        for (Feedback f : new Feedback[] {null, feedback, new Feedback(new float[0][], new float[0][])}) {
            LearnedMaskRequest original = new LearnedMaskRequest(MASK, new float[] {0.6f, 0.8f, 0}, f);
            BytesStreamOutput out = new BytesStreamOutput();
            original.writeTo(out);
            LearnedMaskRequest copy = new LearnedMaskRequest(out.bytes().streamInput());
            assertEquals(MASK, copy.mask());
            assertArrayEquals(original.vector(), copy.vector(), 0f);
            if (f == null) {
                assertNull(copy.feedback());
            } else {
                assertEquals(f.positives().length, copy.feedback().positives().length);
                assertEquals(f.negatives().length, copy.feedback().negatives().length);
                for (int i = 0; i < f.positives().length; i++) {
                    assertArrayEquals(f.positives()[i], copy.feedback().positives()[i], 0f);
                }
                for (int i = 0; i < f.negatives().length; i++) {
                    assertArrayEquals(f.negatives()[i], copy.feedback().negatives()[i], 0f);
                }
            }
        }
    }

    public void testResponseRoundTrip() throws IOException {
        LearnedMaskResponse mask = LearnedMaskResponse.of(MaskSpec.explicit(new int[] {0, 2}));
        BytesStreamOutput out = new BytesStreamOutput();
        mask.writeTo(out);
        LearnedMaskResponse copy = new LearnedMaskResponse(out.bytes().streamInput());
        assertEquals(mask.mask(), copy.mask());
        assertNull(copy.feedbackSets());

        FeedbackMask.Sets sets = new FeedbackMask.Sets("learned", 1000, 1, 10);
        LearnedMaskResponse collect = LearnedMaskResponse.collect(sets);
        out = new BytesStreamOutput();
        collect.writeTo(out);
        copy = new LearnedMaskResponse(out.bytes().streamInput());
        assertNull(copy.mask());
        assertEquals(sets, copy.feedbackSets());
    }
}
