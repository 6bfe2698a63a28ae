package dev.compress.plugin.codec;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.codecs.KnnVectorsReader;
import org.apache.lucene.codecs.StoredFieldsReader;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.KnnVectorValues;
import org.apache.lucene.index.StoredFieldDataInput;
import org.apache.lucene.index.StoredFieldVisitor;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.IOUtils;

/** Reads {@code _source} with its stripped vectors put back ({@link DerivedSourceStoredFieldsFormat}). */
final class DerivedSourceStoredFieldsReader extends StoredFieldsReader {

    private final StoredFieldsReader delegate;
    private final Set<String> strippedFields;
    /** Null when the segment stripped nothing. */
    private final KnnVectorsReader vectors;

    private final boolean ownsVectors;
    /** Not shared: each thread reads through its own {@link #clone}. */
    private final Map<String, FieldCursor> cursors = new HashMap<>();

    DerivedSourceStoredFieldsReader(
            StoredFieldsReader delegate, Set<String> strippedFields, KnnVectorsReader vectors, boolean ownsVectors) {
        this.delegate = delegate;
        this.strippedFields = strippedFields;
        this.vectors = vectors;
        this.ownsVectors = ownsVectors;
    }

    Set<String> strippedFields() {
        return strippedFields;
    }

    /** The stored bytes as written, placeholders included. */
    StoredFieldsReader raw() {
        return delegate;
    }

    @Override
    public void document(int docID, StoredFieldVisitor visitor) throws IOException {
        delegate.document(docID, strippedFields.isEmpty() ? visitor : new RestoringVisitor(visitor, docID));
    }

    @Override
    public void prefetch(int docID) throws IOException {
        delegate.prefetch(docID);
    }

    @Override
    public StoredFieldsReader clone() {
        return new DerivedSourceStoredFieldsReader(delegate.clone(), strippedFields, vectors, false);
    }

    @Override
    public StoredFieldsReader getMergeInstance() {
        return new DerivedSourceStoredFieldsReader(delegate.getMergeInstance(), strippedFields, vectors, false);
    }

    @Override
    public void checkIntegrity() throws IOException {
        // the vector files are checked by the segment's own vectors reader
        delegate.checkIntegrity();
    }

    @Override
    public void close() throws IOException {
        IOUtils.close(delegate, ownsVectors ? vectors : null);
    }

    /**
     * The vector of {@code field} in {@code docID}, null when it has none. Documents are mostly read
     * in increasing order (a fetch phase, a merge), so each field keeps its iterator and moves it
     * forward; an earlier document starts a new one.
     */
    private float[] vector(String field, int docID) throws IOException {
        FieldCursor cursor = cursors.get(field);
        if (cursor == null || cursor.docs().docID() > docID) {
            FloatVectorValues values = vectors.getFloatVectorValues(field);
            if (values == null) {
                return null;
            }
            cursor = new FieldCursor(values, values.iterator());
            cursors.put(field, cursor);
        }
        KnnVectorValues.DocIndexIterator docs = cursor.docs();
        int doc = docs.docID() < docID ? docs.advance(docID) : docs.docID();
        return doc == docID ? cursor.values().vectorValue(docs.index()) : null;
    }

    private record FieldCursor(FloatVectorValues values, KnnVectorValues.DocIndexIterator docs) {}

    /** Passes every field through, {@code _source} with its vectors put back. */
    private final class RestoringVisitor extends StoredFieldVisitor {

        private final StoredFieldVisitor visitor;
        private final int docID;

        RestoringVisitor(StoredFieldVisitor visitor, int docID) {
            this.visitor = visitor;
            this.docID = docID;
        }

        @Override
        public Status needsField(FieldInfo fieldInfo) throws IOException {
            return visitor.needsField(fieldInfo);
        }

        @Override
        public void binaryField(FieldInfo fieldInfo, StoredFieldDataInput value) throws IOException {
            if (DerivedSourceStoredFieldsFormat.isSource(fieldInfo.name)) {
                byte[] bytes = new byte[value.length()];
                value.in().readBytes(bytes, 0, bytes.length);
                binaryField(fieldInfo, bytes);
                return;
            }
            visitor.binaryField(fieldInfo, value);
        }

        @Override
        public void binaryField(FieldInfo fieldInfo, byte[] value) throws IOException {
            if (DerivedSourceStoredFieldsFormat.isSource(fieldInfo.name)) {
                BytesRef restored =
                        SourceVectors.restore(new BytesRef(value), strippedFields, field -> vector(field, docID));
                boolean unchanged = restored.bytes == value;
                visitor.binaryField(fieldInfo, unchanged ? value : BytesRef.deepCopyOf(restored).bytes);
                return;
            }
            visitor.binaryField(fieldInfo, value);
        }

        @Override
        public void stringField(FieldInfo fieldInfo, String value) throws IOException {
            visitor.stringField(fieldInfo, value);
        }

        @Override
        public void intField(FieldInfo fieldInfo, int value) throws IOException {
            visitor.intField(fieldInfo, value);
        }

        @Override
        public void longField(FieldInfo fieldInfo, long value) throws IOException {
            visitor.longField(fieldInfo, value);
        }

        @Override
        public void floatField(FieldInfo fieldInfo, float value) throws IOException {
            visitor.floatField(fieldInfo, value);
        }

        @Override
        public void doubleField(FieldInfo fieldInfo, double value) throws IOException {
            visitor.doubleField(fieldInfo, value);
        }
    }
}
