package dev.compress.plugin.warmup;

import org.opensearch.test.OpenSearchTestCase;

/** Which files warmup reads: by extension, and for float vectors by the per-field format named in the file. */
public class SegmentFileWarmerTests extends OpenSearchTestCase {

    public void testCodesAndGraphsOfEveryFieldFloatsOfFloatFieldsOnly() {
        assertTrue(SegmentFileWarmer.warms("_0_CompressBinaryHnsw_0.vbc"));
        assertTrue(SegmentFileWarmer.warms("_0_CompressBinaryHnsw_0.vex"));
        assertTrue(SegmentFileWarmer.warms("_3_CompressFloatHnsw_1.vex"));
        assertTrue(SegmentFileWarmer.warms("_3_CompressFloatHnsw_1.vec"));
        assertFalse(
                "a binary field's floats are read only to rescore",
                SegmentFileWarmer.warms("_0_CompressBinaryHnsw_0.vec"));
        assertFalse("metadata is read when the segment opens", SegmentFileWarmer.warms("_0_CompressBinaryHnsw_0.vbm"));
        assertFalse(SegmentFileWarmer.warms("_0_CompressFloatHnsw_0.vemf"));
        assertFalse(SegmentFileWarmer.warms("_0.cfs"));
        assertFalse(SegmentFileWarmer.warms("_0_Lucene912_0.doc"));
    }
}
