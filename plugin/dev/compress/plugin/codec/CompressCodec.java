package dev.compress.plugin.codec;

import dev.compress.plugin.mapper.CompressedVectorFieldType;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.codecs.FilterCodec;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.perfield.PerFieldKnnVectorsFormat;
import org.opensearch.index.mapper.MappedFieldType;
import org.opensearch.index.mapper.MapperService;

/**
 * The index's codec with {@code compressed_vector} fields routed to our vector formats. It keeps
 * its delegate's name: segments record each field's format by SPI name, so a plain Lucene codec
 * reopens them after a restart without knowing this class.
 */
final class CompressCodec extends FilterCodec {

    private final KnnVectorsFormat knnVectorsFormat;

    CompressCodec(Codec delegate, MapperService mapperService) {
        super(delegate.getName(), delegate);
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
    }

    @Override
    public KnnVectorsFormat knnVectorsFormat() {
        return knnVectorsFormat;
    }
}
