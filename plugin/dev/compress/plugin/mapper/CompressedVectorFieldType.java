package dev.compress.plugin.mapper;

import java.util.Map;
import org.apache.lucene.search.Query;
import org.opensearch.index.mapper.MappedFieldType;
import org.opensearch.index.mapper.SourceValueFetcher;
import org.opensearch.index.mapper.TextSearchInfo;
import org.opensearch.index.mapper.ValueFetcher;
import org.opensearch.index.query.QueryShardContext;
import org.opensearch.index.query.QueryShardException;
import org.opensearch.search.lookup.SearchLookup;

/** The search-side view of a {@code compressed_vector} field: searched only through {@code compressed_knn}. */
public final class CompressedVectorFieldType extends MappedFieldType {

    private final VectorFieldConfig config;

    public CompressedVectorFieldType(String name, VectorFieldConfig config, Map<String, String> meta) {
        super(name, true, false, false, TextSearchInfo.NONE, meta);
        this.config = config;
    }

    public VectorFieldConfig config() {
        return config;
    }

    @Override
    public String typeName() {
        return CompressedVectorFieldMapper.CONTENT_TYPE;
    }

    @Override
    public ValueFetcher valueFetcher(QueryShardContext context, SearchLookup searchLookup, String format) {
        return new SourceValueFetcher(name(), context) {
            @Override
            protected Object parseSourceValue(Object value) {
                return value;
            }
        };
    }

    @Override
    public Query termQuery(Object value, QueryShardContext context) {
        throw new QueryShardException(
                context,
                "field [" + name() + "] of type [" + typeName()
                        + "] supports no term queries; search it with [compressed_knn]");
    }

    @Override
    public Query existsQuery(QueryShardContext context) {
        return new org.apache.lucene.search.FieldExistsQuery(name());
    }
}
