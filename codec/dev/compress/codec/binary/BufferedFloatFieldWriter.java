package dev.compress.codec.binary;

import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.codecs.hnsw.FlatFieldVectorsWriter;
import org.apache.lucene.index.DocsWithFieldSet;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.util.ArrayUtil;
import org.apache.lucene.util.RamUsageEstimator;

/**
 * Holds a float field's vectors in memory until flush: the codes need the whole segment's mean,
 * the stored floats their exponent windows ({@link ExponentWindows}), and the flush-time graph is
 * built from these vectors.
 */
final class BufferedFloatFieldWriter extends FlatFieldVectorsWriter<float[]> {

    private static final long SHALLOW_SIZE = RamUsageEstimator.shallowSizeOfInstance(BufferedFloatFieldWriter.class);

    private final FieldInfo fieldInfo;
    private final List<float[]> vectors = new ArrayList<>();
    private final DocsWithFieldSet docsWithField = new DocsWithFieldSet();
    private int lastDoc = -1;
    private boolean finished;

    BufferedFloatFieldWriter(FieldInfo fieldInfo) {
        this.fieldInfo = fieldInfo;
    }

    @Override
    public void addValue(int docID, float[] vectorValue) {
        if (finished) {
            throw new IllegalStateException("already finished, cannot add more values");
        }
        if (docID == lastDoc) {
            throw new IllegalArgumentException("VectorValuesField \""
                    + fieldInfo.name
                    + "\" appears more than once in this document (only one value is allowed per field)");
        }
        docsWithField.add(docID);
        vectors.add(copyValue(vectorValue));
        lastDoc = docID;
    }

    @Override
    public float[] copyValue(float[] vectorValue) {
        return ArrayUtil.copyArray(vectorValue);
    }

    @Override
    public List<float[]> getVectors() {
        return vectors;
    }

    @Override
    public DocsWithFieldSet getDocsWithFieldSet() {
        return docsWithField;
    }

    @Override
    public void finish() {
        finished = true;
    }

    @Override
    public boolean isFinished() {
        return finished;
    }

    @Override
    public long ramBytesUsed() {
        long perVector = RamUsageEstimator.NUM_BYTES_ARRAY_HEADER
                + (long) fieldInfo.getVectorDimension() * Float.BYTES
                + RamUsageEstimator.NUM_BYTES_OBJECT_REF;
        return SHALLOW_SIZE + docsWithField.ramBytesUsed() + vectors.size() * perVector;
    }
}
