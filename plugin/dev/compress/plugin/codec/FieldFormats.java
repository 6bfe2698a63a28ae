package dev.compress.plugin.codec;

import dev.compress.codec.HnswParameters;
import dev.compress.codec.binary.BinaryCodeOptions;
import dev.compress.codec.binary.BinaryHnswVectorsFormat;
import dev.compress.codec.floats.FloatHnswVectorsFormat;
import dev.compress.plugin.mapper.VectorEncoding;
import dev.compress.plugin.mapper.VectorFieldConfig;
import org.apache.lucene.codecs.KnnVectorsFormat;

/** Maps a {@code compressed_vector} field's mapping to the codec format that stores it. */
final class FieldFormats {

    private FieldFormats() {}

    static KnnVectorsFormat forField(VectorFieldConfig config) {
        HnswParameters hnsw = config.hnsw().toCodec();
        if (config.encoding() == VectorEncoding.FLOAT) {
            return new FloatHnswVectorsFormat(hnsw);
        }
        return new BinaryHnswVectorsFormat(
                hnsw, new BinaryCodeOptions(config.rescoreVectors(), BinaryCodeOptions.DEFAULT_CENTRED));
    }
}
