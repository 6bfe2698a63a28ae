package dev.compress.plugin.codec;

import dev.compress.plugin.CompressSettings;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.lucene.codecs.Codec;
import org.opensearch.index.codec.CodecService;
import org.opensearch.index.codec.CodecServiceConfig;
import org.opensearch.index.mapper.MapperService;

/** Every codec an index may choose ({@code index.codec}), each wrapped in {@link CompressCodec}. */
public final class CompressCodecService extends CodecService {

    private final MapperService mapperService;
    private final boolean deriveSource;
    private final Map<String, Codec> wrapped = new ConcurrentHashMap<>();

    public CompressCodecService(CodecServiceConfig config) {
        super(config.getMapperService(), config.getIndexSettings(), config.getLogger(), config.getAdditionalCodecs());
        this.mapperService = config.getMapperService();
        this.deriveSource = CompressSettings.INDEX_DERIVED_SOURCE.get(
                config.getIndexSettings().getSettings());
    }

    @Override
    public Codec codec(String name) {
        return wrapped.computeIfAbsent(name, n -> CompressCodec.wrap(super.codec(n), mapperService, deriveSource));
    }
}
