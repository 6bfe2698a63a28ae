package dev.compress.plugin.train;

import dev.compress.plugin.mapper.MappingSourcePath;
import dev.compress.training.trainer.TrainerFactory;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.opensearch.cluster.ClusterState;
import org.opensearch.cluster.metadata.IndexMetadata;
import org.opensearch.cluster.metadata.MappingMetadata;

/**
 * Checks a {@link TrainSpec} against the cluster before a job starts: the indices exist, the named
 * fields are mapped, ratings are numbers, vector fields are vectors of one dimension on both sides, the target
 * dimensions fit, and the method accepts its parameters.
 */
final class TrainSpecValidator {

    /** Field types whose documents carry a float array in {@code _source}. */
    private static final Set<String> VECTOR_TYPES = Set.of("compressed_vector", "knn_vector");

    /** Field types whose values range queries compare as numbers. */
    private static final Set<String> NUMERIC_TYPES = new TreeSet<>(Set.of(
            "byte", "short", "integer", "long", "unsigned_long", "half_float", "float", "double", "scaled_float"));

    private TrainSpecValidator() {}

    /** Returns the input dimension (that of the corpus vectors). */
    static int validate(TrainSpec spec, ClusterState state) {
        TrainerFactory.create(
                spec.method(),
                spec.dimensions(),
                spec.parameters(),
                spec.split().seed(),
                spec.device());
        int corpusDim = vectorDimension(state, "corpus", spec.corpusIndex(), spec.corpusVectorField());
        int queryDim = vectorDimension(state, "queries", spec.queriesIndex(), spec.queriesVectorField());
        if (corpusDim != queryDim) {
            throw new IllegalArgumentException(
                    "[queries.vector_field] [" + spec.queriesVectorField() + "] has dimension " + queryDim
                            + " but [corpus.vector_field] [" + spec.corpusVectorField() + "] has " + corpusDim);
        }
        if (IndexDataReader.ID.equals(spec.queriesIdField()) == false) {
            mappedField(state, "queries", spec.queriesIndex(), "queries.id_field", spec.queriesIdField());
        }
        if (spec.srwJudgments()) {
            if (state.metadata().hasIndex(SrwJudgmentList.INDEX) == false) {
                throw new IllegalArgumentException(
                        "[judgments.srw_judgment_id] needs the Search Relevance Workbench index ["
                                + SrwJudgmentList.INDEX + "], which does not exist");
            }
        } else {
            mappedField(state, "judgments", spec.judgmentsIndex(), "judgments.query_field", spec.judgmentsQueryField());
            mappedField(state, "judgments", spec.judgmentsIndex(), "judgments.doc_field", spec.judgmentsDocField());
            Object ratingType = mappedField(
                            state,
                            "judgments",
                            spec.judgmentsIndex(),
                            "judgments.rating_field",
                            spec.judgmentsRatingField())
                    .get("type");
            if (NUMERIC_TYPES.contains(ratingType) == false) {
                // the checks before a job count ratings with range queries, which compare a string field's values as
                // text
                throw new IllegalArgumentException("[judgments.rating_field] [" + spec.judgmentsRatingField()
                        + "] of index [" + spec.judgmentsIndex() + "] is of type [" + ratingType
                        + "], not a numeric field " + NUMERIC_TYPES);
            }
        }
        if (spec.split().field() != null) {
            mappedField(
                    state,
                    "judgments",
                    spec.judgmentsIndex(),
                    "split.field",
                    spec.split().field());
        }
        int largest = spec.dimensions().isEmpty()
                ? 0
                : spec.dimensions().get(spec.dimensions().size() - 1);
        if (largest >= corpusDim) {
            throw new IllegalArgumentException(
                    "[dimensions] [" + largest + "] must be below the input dimension " + corpusDim);
        }
        return corpusDim;
    }

    private static int vectorDimension(ClusterState state, String section, String index, String field) {
        Map<String, Object> mapping = mappedField(state, section, index, section + ".vector_field", field);
        Object type = mapping.get("type");
        if (VECTOR_TYPES.contains(type) == false || mapping.get("dimension") instanceof Number == false) {
            throw new IllegalArgumentException("[" + section + ".vector_field] [" + field + "] of index [" + index
                    + "] is of type [" + type + "], not a vector field " + VECTOR_TYPES);
        }
        return ((Number) mapping.get("dimension")).intValue();
    }

    /**
     * The mapping of field {@code path} of {@code index}.
     *
     * @param section   the request's section that names the index, for its errors ({@code corpus}, {@code judgments})
     * @param parameter the parameter that names the field, for its errors ({@code split.field})
     */
    private static Map<String, Object> mappedField(
            ClusterState state, String section, String index, String parameter, String path) {
        IndexMetadata metadata = state.metadata().index(index);
        if (metadata == null && state.metadata().hasAlias(index)) {
            throw new IllegalArgumentException(
                    "[" + section + ".index] [" + index + "] is an alias; give the name of the index it points to");
        }
        if (metadata == null) {
            throw new IllegalArgumentException("[" + section + ".index] index [" + index + "] does not exist");
        }
        MappingMetadata mapping = metadata.mapping();
        Map<String, Object> source = mapping == null ? Map.of() : mapping.sourceAsMap();
        MappingSourcePath found = MappingSourcePath.of(source, path);
        if (found == null) {
            int dot = path.lastIndexOf('.');
            MappingSourcePath parent = dot < 0 ? null : MappingSourcePath.of(source, path.substring(0, dot));
            if (parent != null
                    && parent.field().get("fields") instanceof Map<?, ?> subFields
                    && subFields.containsKey(path.substring(dot + 1))) {
                throw new IllegalArgumentException("[" + parameter + "] field [" + path
                        + "] is a multi-field of [" + path.substring(0, dot) + "] in index [" + index
                        + "]: training reads _source, where only [" + path.substring(0, dot)
                        + "] has a value; name that field");
            }
            throw new IllegalArgumentException(
                    "[" + parameter + "] field [" + path + "] is not mapped in index [" + index + "]");
        }
        return found.field();
    }
}
