package dev.compress.codec;

import dev.compress.codec.floats.FloatHnswVectorsFormat;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.tests.index.BaseKnnVectorsFormatTestCase;
import org.apache.lucene.tests.util.TestUtil;

/** Lucene's format conformance suite on the float HNSW format. */
public class TestFloatHnswVectorsFormat extends BaseKnnVectorsFormatTestCase {

    private KnnVectorsFormat format;

    @Override
    public void setUp() throws Exception {
        format = new FloatHnswVectorsFormat(new HnswParameters(8 + random().nextInt(24), 20 + random().nextInt(100)));
        super.setUp();
    }

    @Override
    protected Codec getCodec() {
        return TestUtil.alwaysKnnVectorsFormat(format);
    }

    @Override
    protected boolean supportsFloatVectorFallback() {
        return false;
    }
}
