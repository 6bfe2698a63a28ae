package dev.compress.plugin.query.mask;

import java.io.IOException;
import org.opensearch.common.io.stream.BytesStreamOutput;
import org.opensearch.test.OpenSearchTestCase;

/** The learned-mask action's request and response survive the wire, with and without feedback. */
public class LearnedMaskWireTests extends OpenSearchTestCase {

    private static final MaskSpec MASK = new MaskSpec(MaskType.LEARNED, 0.3, null, "qm", 1, 10, 1000, null);

    public void testRequestRoundTrip() throws IOException {
        float[][] twoDocs = {{1, 0, 0}, {0, 0.6f, 0.8f}};
        for (float[][] feedback : new float[][][] {null, twoDocs, new float[0][]}) {
            LearnedMaskRequest original = new LearnedMaskRequest(MASK, new float[] {0.6f, 0.8f, 0}, feedback);
            BytesStreamOutput out = new BytesStreamOutput();
            original.writeTo(out);
            LearnedMaskRequest copy = new LearnedMaskRequest(out.bytes().streamInput());
            assertEquals(MASK, copy.mask());
            assertArrayEquals(original.vector(), copy.vector(), 0f);
            if (feedback == null) {
                assertNull(copy.feedback());
            } else {
                assertEquals(feedback.length, copy.feedback().length);
                for (int i = 0; i < feedback.length; i++) {
                    assertArrayEquals(feedback[i], copy.feedback()[i], 0f);
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
        assertEquals(0, copy.feedbackDocs());

        LearnedMaskResponse collect = LearnedMaskResponse.collect(3);
        out = new BytesStreamOutput();
        collect.writeTo(out);
        copy = new LearnedMaskResponse(out.bytes().streamInput());
        assertNull(copy.mask());
        assertEquals(3, copy.feedbackDocs());
        expectThrows(IllegalArgumentException.class, () -> LearnedMaskResponse.collect(0));
    }
}
