package dev.compress.codec;

import dev.compress.codec.binary.BinaryCodeOptions;
import dev.compress.codec.binary.BinaryHnswVectorsFormat;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.tests.index.BaseKnnVectorsFormatTestCase;
import org.apache.lucene.tests.util.TestUtil;

/**
 * Lucene's format conformance suite on the binary HNSW format with stored floats (the variant
 * whose vectors round-trip exactly), centred or not at random.
 */
public class TestBinaryHnswVectorsFormat extends BaseKnnVectorsFormatTestCase {

    private KnnVectorsFormat format;

    @Override
    public void setUp() throws Exception {
        format = new BinaryHnswVectorsFormat(
                new HnswParameters(8 + random().nextInt(24), 20 + random().nextInt(100)),
                new BinaryCodeOptions(true, random().nextBoolean()));
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
