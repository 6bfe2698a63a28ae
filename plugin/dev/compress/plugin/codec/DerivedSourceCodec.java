package dev.compress.plugin.codec;

import java.util.Set;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.codecs.FilterCodec;
import org.apache.lucene.codecs.StoredFieldsFormat;
import org.apache.lucene.codecs.lucene104.Lucene104Codec;
import org.apache.lucene.codecs.lucene90.Lucene90StoredFieldsFormat;

/**
 * The codec that segments with vectors stripped from {@code _source} are recorded under, found by
 * Lucene by name when it reopens them: Lucene's default codec whose stored fields put the vectors
 * back ({@link DerivedSourceStoredFieldsFormat}). Its stored-fields reader reads the compression
 * mode each segment recorded, so segments written with OpenSearch's {@code default} and {@code
 * best_compression} codecs both read back. Segments are written by {@link CompressCodec} under the
 * same name.
 */
public final class DerivedSourceCodec extends FilterCodec {

    public static final String NAME = "CompressDerivedSource104";
    static final String DELEGATE = "Lucene104";

    private final StoredFieldsFormat storedFieldsFormat;

    public DerivedSourceCodec() {
        super(NAME, new Lucene104Codec());
        // a codec found by name only reads: what a segment stripped is in its segment info
        this.storedFieldsFormat = new DerivedSourceStoredFieldsFormat(
                delegate.storedFieldsFormat(), delegate.knnVectorsFormat(), Set::of);
    }

    /** Whether segments that {@code codec} writes can be recorded under {@link #NAME} and read back by this codec. */
    static boolean canStandFor(Codec codec) {
        return DELEGATE.equals(codec.getName()) && codec.storedFieldsFormat() instanceof Lucene90StoredFieldsFormat;
    }

    @Override
    public StoredFieldsFormat storedFieldsFormat() {
        return storedFieldsFormat;
    }
}
