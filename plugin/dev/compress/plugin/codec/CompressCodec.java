package dev.compress.plugin.codec;

import dev.compress.plugin.mapper.CompressedVectorFieldType;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.codecs.FilterCodec;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.StoredFieldsFormat;
import org.apache.lucene.codecs.perfield.PerFieldKnnVectorsFormat;
import org.opensearch.index.mapper.MappedFieldType;
import org.opensearch.index.mapper.MapperService;

/**
 * The index's codec with {@code compressed_vector} fields routed to our vector formats, and, when
 * the index derives vectors in {@code _source}, stored fields that keep them out of it. Segments
 * record each field's vector format by SPI name, so Lucene reopens them after a restart without
 * this class: under the delegate's name when {@code _source} is stored as given, under {@link
 * DerivedSourceCodec#NAME} when vectors were stripped from it.
 */
final class CompressCodec extends FilterCodec {

    private final KnnVectorsFormat knnVectorsFormat;
    private final StoredFieldsFormat storedFieldsFormat;

    /**
     * @param deriveSource whether to strip vectors from {@code _source}; honoured only when {@link
     *     DerivedSourceCodec} can read the delegate's segments back
     */
    static CompressCodec wrap(Codec delegate, MapperService mapperService, boolean deriveSource) {
        boolean derived = deriveSource && mapperService != null && DerivedSourceCodec.canStandFor(delegate);
        return new CompressCodec(delegate, mapperService, derived);
    }

    private CompressCodec(Codec delegate, MapperService mapperService, boolean derived) {
        super(derived ? DerivedSourceCodec.NAME : delegate.getName(), delegate);
        KnnVectorsFormat original = delegate.knnVectorsFormat();
        this.knnVectorsFormat = new PerFieldKnnVectorsFormat() {
            @Override
            public KnnVectorsFormat getKnnVectorsFormatForField(String field) {
                MappedFieldType type = mapperService == null ? null : mapperService.fieldType(field);
                if (type instanceof CompressedVectorFieldType compressed) {
                    return FieldFormats.forField(compressed.config());
                }
                // the delegate is usually per-field already; nesting two per-field formats would clash
                return original instanceof PerFieldKnnVectorsFormat perField
                        ? perField.getKnnVectorsFormatForField(field)
                        : original;
            }
        };
        this.storedFieldsFormat = derived
                ? new DerivedSourceStoredFieldsFormat(
                        delegate.storedFieldsFormat(), knnVectorsFormat, () -> DerivedSourceFields.of(mapperService))
                : delegate.storedFieldsFormat();
    }

    @Override
    public KnnVectorsFormat knnVectorsFormat() {
        return knnVectorsFormat;
    }

    @Override
    public StoredFieldsFormat storedFieldsFormat() {
        return storedFieldsFormat;
    }
}
