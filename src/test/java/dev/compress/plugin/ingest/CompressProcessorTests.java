package dev.compress.plugin.ingest;

import dev.compress.plugin.stats.CompressCounters;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.opensearch.core.action.ActionListener;
import org.opensearch.ingest.IngestDocument;
import org.opensearch.ingest.IngestDocumentWrapper;
import org.opensearch.test.OpenSearchTestCase;

/** Sub-batching (one transform call per sub-batch) and per-document failures, with a counting transform. */
public class CompressProcessorTests extends OpenSearchTestCase {

    /** Doubles every value; counts calls and the rows of each. */
    private static final class CountingCompression implements VectorCompression, VectorTransform {
        final List<Integer> callSizes = new ArrayList<>();

        @Override
        public void resolve(ActionListener<VectorTransform> listener) {
            listener.onResponse(this);
        }

        @Override
        public void check(float[] vector) {
            if (vector.length != 2) {
                throw new IllegalArgumentException(
                        "vector has " + vector.length + " dimensions but model [m] expects 2");
            }
        }

        @Override
        public float[][] apply(float[][] vectors) {
            callSizes.add(vectors.length);
            float[][] out = new float[vectors.length][];
            for (int i = 0; i < vectors.length; i++) {
                out[i] = new float[] {vectors[i][0] * 2, vectors[i][1] * 2};
            }
            return out;
        }
    }

    private static IngestDocumentWrapper wrap(int slot, Object vector) {
        Map<String, Object> source = new HashMap<>();
        if (vector != null) {
            source.put("v", vector);
        }
        return new IngestDocumentWrapper(
                slot, 0, new IngestDocument("idx", Integer.toString(slot), null, null, null, source), null);
    }

    private static List<IngestDocumentWrapper> run(CompressProcessor processor, List<IngestDocumentWrapper> docs) {
        AtomicReference<List<IngestDocumentWrapper>> result = new AtomicReference<>();
        processor.batchExecute(docs, result::set);
        assertNotNull("the handler must be called", result.get());
        return result.get();
    }

    public void testOneTransformCallPerSubBatch() {
        CountingCompression compression = new CountingCompression();
        CompressProcessor processor =
                new CompressProcessor("t", null, 4, "v", "out", false, compression, new CompressCounters());
        List<IngestDocumentWrapper> docs = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            docs.add(wrap(i, List.of(i, 1.5)));
        }
        List<IngestDocumentWrapper> results = run(processor, docs);
        assertEquals(List.of(4, 4, 2), compression.callSizes);
        assertEquals(10, results.size());
        for (IngestDocumentWrapper result : results) {
            assertNull(result.getException());
            int i = result.getSlot();
            assertEquals(List.of(2f * i, 3f), result.getIngestDocument().getFieldValue("out", List.class));
        }
    }

    public void testBadDocumentsFailAloneWithTheirReason() {
        CountingCompression compression = new CountingCompression();
        CompressProcessor processor =
                new CompressProcessor("t", null, 100, "v", "out", false, compression, new CompressCounters());
        List<IngestDocumentWrapper> docs = List.of(
                wrap(0, List.of(1, 2)),
                wrap(1, null),
                wrap(2, "1,2"),
                wrap(3, List.of(1, "x")),
                wrap(4, List.of(1, 2, 3)),
                wrap(5, List.of(1, Double.NaN)),
                wrap(6, List.of(1, 1e39)),
                wrap(7, List.of(List.of(1), 2)),
                wrap(8, List.of()),
                wrap(10, List.of(true, 1)),
                wrap(9, List.of(3, 4)));
        Map<Integer, String> errors = new HashMap<>();
        for (IngestDocumentWrapper result : run(processor, docs)) {
            if (result.getException() != null) {
                errors.put(result.getSlot(), result.getException().getMessage());
            }
        }
        assertEquals(List.of(2), compression.callSizes);
        assertEquals(
                Map.of(
                        1, "[compress] field [v] is missing",
                        2, "[compress] field [v]: expected an array of numbers, got [string 1,2]",
                        3, "[compress] field [v]: expected only numbers, got [string x] at position 1",
                        4, "[compress] field [v]: vector has 3 dimensions but model [m] expects 2",
                        5, "[compress] field [v]: value [NaN] at position 1 is not a finite float",
                        6, "[compress] field [v]: value [1.0E39] at position 1 is not a finite float",
                        7, "[compress] field [v]: expected only numbers, got [an array] at position 0",
                        8, "[compress] field [v]: expected an array of numbers, got an empty array",
                        10, "[compress] field [v]: expected only numbers, got [boolean true] at position 0"),
                errors);
    }

    /** A transform's output that is not finite fails its document, not the batch, and never reaches the target. */
    public void testNonFiniteOutputFailsOnlyThatDocument() {
        CountingCompression compression = new CountingCompression();
        CompressProcessor processor =
                new CompressProcessor("t", null, 100, "v", "out", false, compression, new CompressCounters());
        List<IngestDocumentWrapper> results =
                run(processor, List.of(wrap(0, List.of(3e38, 0)), wrap(1, List.of(1, 2))));
        assertEquals(
                "[compress] field [v]: compressing this vector, of length 3.0E38, gave the non-finite value [Infinity]"
                        + " at position 0",
                results.get(0).getException().getMessage());
        assertFalse(results.get(0).getIngestDocument().hasField("out"));
        assertNull(results.get(1).getException());
        assertEquals(List.of(2f, 4f), results.get(1).getIngestDocument().getFieldValue("out", List.class));
    }

    /** A zero prefix (or a zero model output) has no direction: its document fails, naming it, and others pass. */
    public void testZeroOutputFailsOnlyThatDocument() {
        CompressProcessor processor =
                new CompressProcessor("t", null, 100, "v", "out", false, new Truncation(2), new CompressCounters());
        List<IngestDocumentWrapper> results = run(
                processor,
                List.of(wrap(0, List.of(0, 0, 5)), wrap(1, List.of(-0.0, 1e-46, 1)), wrap(2, List.of(3, 4))));
        for (int slot : new int[] {0, 1}) {
            assertEquals(
                    "[compress] field [v]: compressing this vector, of length " + (slot == 0 ? "5.0" : "1.0")
                            + ", gave the zero vector, which has no direction",
                    results.get(slot).getException().getMessage());
            assertFalse(results.get(slot).getIngestDocument().hasField("out"));
        }
        assertNull(results.get(2).getException());
        assertEquals(List.of(0.6f, 0.8f), results.get(2).getIngestDocument().getFieldValue("out", List.class));
    }

    /** Truncation renormalises a vector too short for a float inverse of its length, where it wrote Infinity. */
    public void testTruncationNormalisesTheShortestVectors() {
        CompressProcessor processor =
                new CompressProcessor("t", null, 100, "v", "out", false, new Truncation(2), new CompressCounters());
        List<IngestDocumentWrapper> results =
                run(processor, List.of(wrap(0, List.of(1e-45, 1e-45, 1)), wrap(1, List.of(3e-39, 4e-39))));
        float half = (float) Math.sqrt(0.5);
        assertNull(results.get(0).getException());
        assertEquals(List.of(half, half), results.get(0).getIngestDocument().getFieldValue("out", List.class));
        // subnormal inputs carry few bits: their direction comes back to within them
        List<?> subnormal = results.get(1).getIngestDocument().getFieldValue("out", List.class);
        assertEquals(0.6f, (Float) subnormal.get(0), 1e-6f);
        assertEquals(0.8f, (Float) subnormal.get(1), 1e-6f);
    }

    public void testUnwritableTargetFailsOnlyThatDocument() {
        CountingCompression compression = new CountingCompression();
        CompressProcessor processor =
                new CompressProcessor("t", null, 100, "v", "out.x", false, compression, new CompressCounters());
        IngestDocumentWrapper blocked = wrap(0, List.of(1, 1));
        blocked.getIngestDocument().setFieldValue("out", "a string, not an object");
        List<IngestDocumentWrapper> results = run(processor, List.of(blocked, wrap(1, List.of(1, 2))));
        assertTrue(
                results.get(0).getException().getMessage(),
                results.get(0).getException().getMessage().startsWith("[compress] cannot write [out.x]"));
        assertNull(results.get(1).getException());
        assertEquals(List.of(2f, 4f), results.get(1).getIngestDocument().getFieldValue("out.x", List.class));
    }

    public void testIgnoreMissingPassesDocumentsWithoutTheField() {
        CountingCompression compression = new CountingCompression();
        CompressProcessor processor =
                new CompressProcessor("t", null, 100, "v", "out", true, compression, new CompressCounters());
        List<IngestDocumentWrapper> results = run(processor, List.of(wrap(0, null), wrap(1, List.of(1, 1))));
        assertNull(results.get(0).getException());
        assertFalse(results.get(0).getIngestDocument().hasField("out"));
        assertEquals(List.of(2f, 2f), results.get(1).getIngestDocument().getFieldValue("out", List.class));
    }

    public void testModelFailureFailsOnlyTheDocumentsThatNeededIt() {
        VectorCompression missing =
                listener -> listener.onFailure(new IllegalArgumentException("model [gone] does not exist"));
        CompressProcessor processor =
                new CompressProcessor("t", null, 100, "v", "out", true, missing, new CompressCounters());
        List<IngestDocumentWrapper> results = run(processor, List.of(wrap(0, null), wrap(1, List.of(1, 1))));
        assertNull("a document without a vector needs no model", results.get(0).getException());
        assertEquals(
                "model [gone] does not exist", results.get(1).getException().getMessage());
    }

    public void testAHandlerThatThrowsIsNotRunAgainThroughOnFailure() {
        CountingCompression transform = new CountingCompression();
        // as ActionListener.wrap does upstream: what onResponse throws is passed to onFailure
        VectorCompression wrapping = listener -> {
            try {
                listener.onResponse(transform);
            } catch (RuntimeException e) {
                listener.onFailure(e);
            }
        };
        CompressProcessor processor =
                new CompressProcessor("t", null, 100, "v", "out", false, wrapping, new CompressCounters());
        List<IngestDocumentWrapper> docs = List.of(wrap(0, List.of(1, 2)), wrap(1, List.of(3, 4)));
        AtomicInteger calls = new AtomicInteger();
        processor.batchExecute(docs, results -> {
            calls.incrementAndGet();
            throw new IllegalStateException("the next processor failed");
        });
        assertEquals("the rest of the pipeline runs once", 1, calls.get());
        assertEquals(List.of(2), transform.callSizes);
        for (IngestDocumentWrapper doc : docs) {
            assertNull(doc.getException());
        }
    }

    public void testSingleDocumentPathUsesTheSameCode() {
        CountingCompression compression = new CountingCompression();
        CompressProcessor processor =
                new CompressProcessor("t", null, 100, "v", "out", false, compression, new CompressCounters());
        AtomicInteger calls = new AtomicInteger();
        IngestDocument document = wrap(0, List.of(1, 2)).getIngestDocument();
        processor.execute(document, (doc, e) -> {
            calls.incrementAndGet();
            assertNull(e);
            assertEquals(List.of(2f, 4f), doc.getFieldValue("out", List.class));
        });
        processor.execute(wrap(1, List.of(1)).getIngestDocument(), (doc, e) -> {
            calls.incrementAndGet();
            assertNull(doc);
            assertEquals("[compress] field [v]: vector has 1 dimensions but model [m] expects 2", e.getMessage());
        });
        assertEquals(2, calls.get());
    }
}
