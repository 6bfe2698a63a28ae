package dev.compress.plugin.codec;

import java.io.IOException;
import java.util.HashSet;
import java.util.Set;
import org.apache.lucene.codecs.StoredFieldsReader;
import org.apache.lucene.codecs.StoredFieldsWriter;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.MergeState;
import org.apache.lucene.index.SegmentInfo;
import org.apache.lucene.index.StoredFieldDataInput;
import org.apache.lucene.util.BytesRef;

/** Writes {@code _source} with its vectors stripped ({@link DerivedSourceStoredFieldsFormat}). */
final class DerivedSourceStoredFieldsWriter extends StoredFieldsWriter {

    private final StoredFieldsWriter delegate;
    private final SegmentInfo segment;
    private final Set<String> fieldsToStrip;
    private final Set<String> stripped = new HashSet<>();

    DerivedSourceStoredFieldsWriter(StoredFieldsWriter delegate, SegmentInfo segment, Set<String> fieldsToStrip) {
        this.delegate = delegate;
        this.segment = segment;
        this.fieldsToStrip = fieldsToStrip;
    }

    @Override
    public void startDocument() throws IOException {
        delegate.startDocument();
    }

    @Override
    public void finishDocument() throws IOException {
        delegate.finishDocument();
    }

    @Override
    public void writeField(FieldInfo info, int value) throws IOException {
        delegate.writeField(info, value);
    }

    @Override
    public void writeField(FieldInfo info, long value) throws IOException {
        delegate.writeField(info, value);
    }

    @Override
    public void writeField(FieldInfo info, float value) throws IOException {
        delegate.writeField(info, value);
    }

    @Override
    public void writeField(FieldInfo info, double value) throws IOException {
        delegate.writeField(info, value);
    }

    @Override
    public void writeField(FieldInfo info, String value) throws IOException {
        delegate.writeField(info, value);
    }

    @Override
    public void writeField(FieldInfo info, BytesRef value) throws IOException {
        if (DerivedSourceStoredFieldsFormat.isSource(info.name)) {
            SourceVectors.Stripped result = SourceVectors.strip(value, fieldsToStrip);
            if (result != null) {
                stripped.addAll(result.fields());
                delegate.writeField(info, result.source());
                return;
            }
        }
        delegate.writeField(info, value);
    }

    @Override
    public void writeField(FieldInfo info, StoredFieldDataInput value) throws IOException {
        if (DerivedSourceStoredFieldsFormat.isSource(info.name)) {
            byte[] bytes = new byte[value.length()];
            value.in().readBytes(bytes, 0, bytes.length);
            writeField(info, new BytesRef(bytes));
            return;
        }
        delegate.writeField(info, value);
    }

    @Override
    public void finish(int numDocs) throws IOException {
        DerivedSourceStoredFieldsFormat.recordStrippedFields(segment, stripped);
        delegate.finish(numDocs);
    }

    /**
     * Segments all of this format are copied as they are, placeholders included, so that the
     * delegate's bulk copy applies, and the merged segment lists every field its sources stripped.
     * When any segment comes wrapped (OpenSearch prunes {@code _recovery_source} through a wrapper),
     * every document is read back whole through the readers and written through this writer, which
     * strips it again.
     */
    @Override
    public int merge(MergeState mergeState) throws IOException {
        StoredFieldsReader[] readers = mergeState.storedFieldsReaders;
        for (StoredFieldsReader reader : readers) {
            if (reader instanceof DerivedSourceStoredFieldsReader == false) {
                return super.merge(mergeState);
            }
        }
        for (int i = 0; i < readers.length; i++) {
            DerivedSourceStoredFieldsReader derived = (DerivedSourceStoredFieldsReader) readers[i];
            stripped.addAll(derived.strippedFields());
            readers[i] = derived.raw();
        }
        // the delegate's merge calls its own finish
        DerivedSourceStoredFieldsFormat.recordStrippedFields(segment, stripped);
        return delegate.merge(mergeState);
    }

    @Override
    public void close() throws IOException {
        delegate.close();
    }

    @Override
    public long ramBytesUsed() {
        return delegate.ramBytesUsed();
    }
}
