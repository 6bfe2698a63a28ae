package dev.compress.plugin.codec;

import java.io.IOException;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.KnnVectorsReader;
import org.apache.lucene.codecs.StoredFieldsFormat;
import org.apache.lucene.codecs.StoredFieldsReader;
import org.apache.lucene.codecs.StoredFieldsWriter;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.FieldInfos;
import org.apache.lucene.index.SegmentInfo;
import org.apache.lucene.index.SegmentReadState;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.util.IOUtils;

/**
 * Stored fields whose {@code _source} does not repeat the {@code compressed_vector} values that the
 * vector format already stores: the vector is stored once, and every reader of {@code _source}
 * (GET, search hits, {@code _reindex}, updates, operation-based recovery) sees it as indexed.
 *
 * <p>Files and fields: those of the delegate stored-fields format, unchanged, with two differences.
 *
 * <ul>
 *   <li>In each document's {@code _source} (bytes, in the document's content type), the array of each
 *       stripped field is replaced by the integer {@link SourceVectors#PLACEHOLDER}.
 *   <li>The segment info carries the attribute {@value #FIELDS_ATTRIBUTE} (string): the full names of
 *       the fields stripped in the segment, newline-separated, sorted; absent when none was.
 * </ul>
 *
 * <p>On read, a placeholder is replaced by the float32 vector the segment's vector format holds for
 * the document, printed as JSON numbers of the shortest form that reads back to the same float. A
 * field is stripped only when those floats are the indexed ones exactly: float fields, and binary
 * fields that keep floats for rescoring. Merges of segments of this format copy stored sources as
 * they are, placeholders included, and the merged segment lists the union of its sources' fields;
 * any other merge (OpenSearch's pruning of {@code _recovery_source} wraps the segments it merges)
 * reads each source back whole and strips it again.
 */
public final class DerivedSourceStoredFieldsFormat extends StoredFieldsFormat {

    /**
     * The version of what this format writes (the placeholder, the attribute, the codec name); raised
     * with any change that an older reader would not read the same.
     */
    public static final int VERSION_CURRENT = 1;

    static final String FIELDS_ATTRIBUTE = "compress.derived_source.fields";
    public static final String SOURCE_FIELD = "_source";
    /** Where OpenSearch keeps the whole source for recovery when the mapping filters {@code _source}. */
    static final String RECOVERY_SOURCE_FIELD = "_recovery_source";

    /** Whether a stored field holds a document source that vectors leave. */
    static boolean isSource(String field) {
        return SOURCE_FIELD.equals(field) || RECOVERY_SOURCE_FIELD.equals(field);
    }

    private final StoredFieldsFormat delegate;
    private final KnnVectorsFormat vectorsFormat;
    private final Supplier<Set<String>> fieldsToStrip;

    /**
     * @param delegate      the stored-fields format the bytes are written in
     * @param vectorsFormat the codec's vector format, opened to read stripped vectors back
     * @param fieldsToStrip the fields a new segment strips, asked once per segment
     */
    public DerivedSourceStoredFieldsFormat(
            StoredFieldsFormat delegate, KnnVectorsFormat vectorsFormat, Supplier<Set<String>> fieldsToStrip) {
        this.delegate = delegate;
        this.vectorsFormat = vectorsFormat;
        this.fieldsToStrip = fieldsToStrip;
    }

    @Override
    public StoredFieldsReader fieldsReader(Directory directory, SegmentInfo si, FieldInfos fn, IOContext context)
            throws IOException {
        StoredFieldsReader raw = delegate.fieldsReader(directory, si, fn, context);
        Set<String> fields = strippedFields(si, fn);
        if (fields.isEmpty()) {
            // still ours, so that merges with segments that stripped copy bytes instead of re-stripping
            return new DerivedSourceStoredFieldsReader(raw, fields, null, false);
        }
        KnnVectorsReader vectors = null;
        try {
            vectors = vectorsFormat.fieldsReader(new SegmentReadState(directory, si, fn, context));
            return new DerivedSourceStoredFieldsReader(raw, fields, vectors, true);
        } catch (IOException | RuntimeException e) {
            IOUtils.closeWhileHandlingException(raw, vectors);
            throw e;
        }
    }

    @Override
    public StoredFieldsWriter fieldsWriter(Directory directory, SegmentInfo si, IOContext context) throws IOException {
        return new DerivedSourceStoredFieldsWriter(
                delegate.fieldsWriter(directory, si, context), si, fieldsToStrip.get());
    }

    /** Records the fields a segment stripped in its segment info. */
    static void recordStrippedFields(SegmentInfo si, Set<String> fields) {
        if (fields.isEmpty() == false) {
            si.putAttribute(FIELDS_ATTRIBUTE, String.join("\n", new TreeSet<>(fields)));
        }
    }

    /** The stripped fields a segment lists that still hold vectors in it. */
    private static Set<String> strippedFields(SegmentInfo si, FieldInfos fn) {
        String listed = si.getAttribute(FIELDS_ATTRIBUTE);
        if (listed == null || listed.isEmpty()) {
            return Set.of();
        }
        return Arrays.stream(listed.split("\n"))
                .filter(name -> {
                    FieldInfo info = fn.fieldInfo(name);
                    return info != null && info.hasVectorValues();
                })
                .collect(Collectors.toUnmodifiableSet());
    }
}
