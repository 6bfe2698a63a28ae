package dev.compress.codec;

import dev.compress.codec.binary.BinaryCodeOptions;
import dev.compress.codec.binary.BinaryFlatVectorsFormat;
import dev.compress.codec.binary.BinaryHnswVectorsFormat;
import java.io.IOException;
import java.util.Map;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.index.CodecReader;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.VectorEncoding;
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

    /**
     * Lucene's check expects float32 vectors in {@code .vec}; a float field of ours keeps them in
     * {@code .vbf} beside its codes in {@code .vbc}, and a byte field in Lucene's {@code .vec}.
     */
    @Override
    protected void assertOffHeapByteSize(LeafReader reader, String fieldName) throws IOException {
        FieldInfo info = reader.getFieldInfos().fieldInfo(fieldName);
        Map<String, Long> sizes = ((CodecReader) reader).getVectorReader().getOffHeapByteSize(info);
        if (info.getVectorEncoding() == VectorEncoding.FLOAT32) {
            boolean any = reader.getFloatVectorValues(fieldName).size() > 0;
            assertEquals(sizes.toString(), any, sizes.get(BinaryFlatVectorsFormat.FLOATS_EXTENSION) > 0);
            assertEquals(sizes.toString(), any, sizes.get(BinaryFlatVectorsFormat.DATA_EXTENSION) > 0);
            assertNull(sizes.toString(), sizes.get("vec"));
        } else {
            boolean any = reader.getByteVectorValues(fieldName).size() > 0;
            assertEquals(sizes.toString(), any, sizes.get("vec") > 0);
        }
    }
}
