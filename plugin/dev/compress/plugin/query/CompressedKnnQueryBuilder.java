package dev.compress.plugin.query;

import dev.compress.codec.search.RescoringKnnQuery;
import dev.compress.plugin.mapper.VectorSimilarity;
import dev.compress.plugin.query.mask.MaskSpec;
import dev.compress.plugin.stats.CompressCounters;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.Query;
import org.opensearch.action.IndicesRequest;
import org.opensearch.action.OriginalIndices;
import org.opensearch.action.search.SearchRequest;
import org.opensearch.common.SetOnce;
import org.opensearch.core.action.ActionListener;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.xcontent.XContentBuilder;
import org.opensearch.index.query.AbstractQueryBuilder;
import org.opensearch.index.query.QueryBuilder;
import org.opensearch.index.query.QueryBuilderVisitor;
import org.opensearch.index.query.QueryCoordinatorContext;
import org.opensearch.index.query.QueryRewriteContext;
import org.opensearch.index.query.QueryShardContext;

/**
 * {@code compressed_knn}: the k nearest neighbours of a vector on a {@code compressed_vector} field,
 * or (radial search) every document within {@code min_score} or {@code max_distance} of it.
 * As in the k-NN plugin, {@code k} applies per shard; shards' hits are merged by score and the
 * request's {@code size} caps the total.
 *
 * <p>Float fields walk the float HNSW graph with a beam of {@code num_candidates} (default 100)
 * per segment and keep the best {@code k}. Binary fields walk the graph on the codes for
 * {@code max(num_candidates, k * oversample_factor)} candidates per segment (at most {@value #MAX_K}),
 * then (by default) rescore them with the float query, against the stored float vectors or, for a
 * codes-only field, against the codes, and keep the best {@code k}. Scores are Lucene's scores of
 * the field similarity ({@link VectorSimilarity}), exact or estimated; see {@link RescoringKnnQuery}.
 * A radial search scores every document of the shard with its float vector ({@link ShardVectorQuery}).
 *
 * <p>With {@code model_id}, {@code vector} is a raw vector of the model's input dimension: the
 * coordinating node's rewrite passes it through the model ({@link AdaptQueryVectorAction}, cached
 * per node) and the shards search with the adapted vector.
 *
 * <p>With {@code mask} ({@link MaskSpec}), the rewrite then turns the mask into an explicit list of kept
 * dimensions of the (adapted) vector, once per request on the coordinating node; shards zero the other
 * dimensions and search with that vector, so scores are those of the masked query.
 *
 * <p>Built in Java with {@link #builder()}, which checks the parameters together, as parsing does.
 */
public final class CompressedKnnQueryBuilder extends AbstractQueryBuilder<CompressedKnnQueryBuilder> {

    public static final String NAME = "compressed_knn";
    public static final int MAX_K = 10_000;
    public static final int DEFAULT_NUM_CANDIDATES = 100;

    private final String field;
    private final float[] vector;
    /** Null for a radial search. */
    private final Integer k;

    private final Float minScore;
    private final Float maxDistance;
    private final Integer numCandidates;
    private final RescoreOptions rescore;
    private final QueryBuilder filter;
    private final boolean ignoreUnmapped;
    private final boolean expandNestedDocs;
    private final String modelId;
    private final Integer modelDimension;
    private final MaskSpec mask;
    /** Set between registering the model fetch and its answer during rewrite; never serialised. */
    private final Supplier<float[]> adaptedVector;
    /**
     * The model that produced {@code vector}, once the rewrite has applied it (and dropped {@code model_id}), so that a
     * shard's dimension error can say the vector is the model's output. Provenance, not a parameter: serialised, but
     * neither rendered nor compared.
     */
    private final String adaptedBy;
    /** Set between registering a mask computation and its answer during rewrite; never serialised. */
    private final Supplier<MaskSpec> pendingMask;
    /**
     * Where this node counts the query: set when the plugin parses the query or reads it from another
     * node, carried by the copies its rewrite returns. Not a parameter: never serialised nor compared.
     */
    private final CompressCounters counters;

    /** Counts nothing: the counters of a query built in Java, which no node's plugin parsed or read. */
    private static final CompressCounters UNCOUNTED = new CompressCounters();

    /**
     * A query to be given its parameters: {@code field}, {@code vector} and exactly one of {@code k},
     * {@code min_score} and {@code max_distance} are required.
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The parameters of a {@code compressed_knn} query, as in its JSON; {@link #build} checks them
     * together (e.g. {@code num_candidates} against {@code k}), so a query is never half valid.
     * Boost and name are set on the query built, as on any query.
     */
    public static final class Builder {
        private String field;
        private float[] vector;
        private Integer k;
        private Float minScore;
        private Float maxDistance;
        private Integer numCandidates;
        private RescoreOptions rescore;
        private QueryBuilder filter;
        private boolean ignoreUnmapped;
        private boolean expandNestedDocs;
        private String modelId;
        private Integer modelDimension;
        private MaskSpec mask;
        /** Rewrite state: only the query itself sets these, on the copies its rewrite returns. */
        private Supplier<float[]> adaptedVector;

        private String adaptedBy;

        private Supplier<MaskSpec> pendingMask;

        private CompressCounters counters = UNCOUNTED;

        private Builder() {}

        /** The {@code compressed_vector} field to search. */
        public Builder field(String field) {
            this.field = field;
            return this;
        }

        /** The query vector: of the field's dimension, or with {@link #modelId} of the model's input dimension. */
        public Builder vector(float[] vector) {
            this.vector = vector;
            return this;
        }

        /** Hits per shard, in [1, {@value CompressedKnnQueryBuilder#MAX_K}]. */
        public Builder k(Integer k) {
            this.k = k;
            return this;
        }

        /**
         * Radial search: every document whose score is at least this, instead of the k nearest. Scores
         * are those of the field's similarity (see {@link VectorSimilarity}); positive and finite.
         */
        public Builder minScore(Float minScore) {
            this.minScore = minScore;
            return this;
        }

        /** Radial search on an {@code l2} field: every document within this Euclidean distance; finite, >= 0. */
        public Builder maxDistance(Float maxDistance) {
            this.maxDistance = maxDistance;
            return this;
        }

        /** The search beam per segment, in [k, {@value CompressedKnnQueryBuilder#MAX_K}]; null for the field's default. */
        public Builder numCandidates(Integer numCandidates) {
            this.numCandidates = numCandidates;
            return this;
        }

        /** Binary fields only: oversampling and rescoring; null for {@link RescoreOptions#DEFAULT}. */
        public Builder rescore(RescoreOptions rescore) {
            this.rescore = rescore;
            return this;
        }

        /** Documents the neighbours must match, or null. */
        public Builder filter(QueryBuilder filter) {
            this.filter = filter;
            return this;
        }

        /** Whether a shard without the field matches nothing instead of failing. */
        public Builder ignoreUnmapped(boolean ignoreUnmapped) {
            this.ignoreUnmapped = ignoreUnmapped;
            return this;
        }

        /**
         * Inside a {@code nested} query, with {@code k}: every nested document of the k nearest
         * parents is a hit, with its own score, not only each parent's best.
         */
        public Builder expandNestedDocs(boolean expandNestedDocs) {
            this.expandNestedDocs = expandNestedDocs;
            return this;
        }

        /** When set, {@code vector} is a raw vector that the rewrite passes through this model. */
        public Builder modelId(String modelId) {
            this.modelId = modelId;
            return this;
        }

        /** Which of the model's output dimensions to keep (default: its largest); needs {@link #modelId}. */
        public Builder modelDimension(Integer modelDimension) {
            this.modelDimension = modelDimension;
            return this;
        }

        /** Which of the (adapted) query's dimensions to keep, or null for all. */
        public Builder mask(MaskSpec mask) {
            this.mask = mask;
            return this;
        }

        private Builder adaptedVector(Supplier<float[]> adaptedVector) {
            this.adaptedVector = adaptedVector;
            return this;
        }

        Builder adaptedBy(String modelId) {
            this.adaptedBy = modelId;
            return this;
        }

        Builder pendingMask(Supplier<MaskSpec> pendingMask) {
            this.pendingMask = pendingMask;
            return this;
        }

        Builder counters(CompressCounters counters) {
            this.counters = counters;
            return this;
        }

        /** The query; an {@link IllegalArgumentException} naming the parameter when one is missing or out of range. */
        public CompressedKnnQueryBuilder build() {
            return new CompressedKnnQueryBuilder(this);
        }
    }

    /** Whether {@code query} or a query inside it, as far as compound queries let a visitor see, is one of ours. */
    private static boolean holdsVectorQuery(QueryBuilder query) {
        boolean[] found = {false};
        query.visit(new QueryBuilderVisitor() {
            @Override
            public void accept(QueryBuilder visited) {
                found[0] |= visited instanceof CompressedKnnQueryBuilder;
            }

            @Override
            public QueryBuilderVisitor getChildVisitor(BooleanClause.Occur occur) {
                return this;
            }
        });
        return found[0];
    }

    private CompressedKnnQueryBuilder(Builder b) {
        if (b.field == null || b.field.isEmpty()) {
            throw new IllegalArgumentException("[" + NAME + "] requires [field]");
        }
        if (b.vector == null || b.vector.length == 0) {
            throw new IllegalArgumentException("[" + NAME + "] requires a non-empty [vector]");
        }
        for (int i = 0; i < b.vector.length; i++) {
            if (Float.isFinite(b.vector[i]) == false) {
                throw new IllegalArgumentException(
                        "[" + NAME + "] [vector] has a non-finite value [" + b.vector[i] + "] at position " + i);
            }
        }
        VectorSimilarity.checkLength("[" + NAME + "] [vector]", VectorSimilarity.squaredLength(b.vector));
        checkSearchSize(b);
        if (b.filter != null && holdsVectorQuery(b.filter)) {
            // each level of nesting would search its filter again for every rewrite of the level above
            throw new IllegalArgumentException("[" + NAME + "] [filter] must not contain another [" + NAME
                    + "] query; combine them in a [bool] query instead");
        }
        if (b.modelId != null && b.modelId.isBlank()) {
            throw new IllegalArgumentException("[" + NAME + "] [model_id] must not be empty");
        }
        if (b.modelDimension != null && b.modelId == null) {
            throw new IllegalArgumentException("[" + NAME + "] [model_dimension] requires [model_id]");
        }
        if (b.modelDimension != null && b.modelDimension < 1) {
            throw new IllegalArgumentException(
                    "[" + NAME + "] [model_dimension] must be positive, got [" + b.modelDimension + "]");
        }
        this.field = b.field;
        this.vector = b.vector;
        this.k = b.k;
        this.minScore = b.minScore;
        this.maxDistance = b.maxDistance;
        this.numCandidates = b.numCandidates;
        this.rescore = b.rescore;
        this.filter = b.filter;
        this.ignoreUnmapped = b.ignoreUnmapped;
        this.expandNestedDocs = b.expandNestedDocs;
        this.modelId = b.modelId;
        this.modelDimension = b.modelDimension;
        this.mask = b.mask;
        this.adaptedVector = b.adaptedVector;
        this.adaptedBy = b.adaptedBy;
        this.pendingMask = b.pendingMask;
        this.counters = b.counters;
    }

    /**
     * Exactly one of {@code k}, {@code min_score} and {@code max_distance}, each in range; the
     * parameters of the k-nearest search ({@code num_candidates}, {@code rescore}) only with {@code k}.
     */
    private static void checkSearchSize(Builder b) {
        List<String> given = new ArrayList<>();
        if (b.k != null) {
            given.add("[k=" + b.k + "]");
        }
        if (b.minScore != null) {
            given.add("[min_score=" + b.minScore + "]");
        }
        if (b.maxDistance != null) {
            given.add("[max_distance=" + b.maxDistance + "]");
        }
        if (given.size() != 1) {
            throw new IllegalArgumentException("[" + NAME + "] takes exactly one of [k], [min_score] and [max_distance]"
                    + (given.isEmpty() ? "" : ", got " + String.join(" and ", given)));
        }
        if (b.k != null) {
            int k = b.k;
            if (k < 1 || k > MAX_K) {
                throw new IllegalArgumentException("[" + NAME + "] [k] must be in [1, " + MAX_K + "], got [" + k + "]");
            }
            if (b.numCandidates != null && (b.numCandidates < k || b.numCandidates > MAX_K)) {
                throw new IllegalArgumentException("[" + NAME + "] [num_candidates] must be in [k=" + k + ", " + MAX_K
                        + "], got [" + b.numCandidates + "]");
            }
            return;
        }
        if (b.minScore != null && (Float.isFinite(b.minScore) == false || b.minScore <= 0)) {
            throw new IllegalArgumentException(
                    "[" + NAME + "] [min_score] must be a finite number > 0, got [" + b.minScore + "]");
        }
        if (b.maxDistance != null && (Float.isFinite(b.maxDistance) == false || b.maxDistance < 0)) {
            throw new IllegalArgumentException(
                    "[" + NAME + "] [max_distance] must be a finite number >= 0, got [" + b.maxDistance + "]");
        }
        // a radial search scores every document with its float vector: there is no beam and nothing to rescore
        String radial = b.minScore != null ? "[min_score]" : "[max_distance]";
        if (b.numCandidates != null) {
            throw new IllegalArgumentException("[" + NAME + "] [num_candidates] applies to [k] searches only, not to "
                    + radial + ", which scores every document");
        }
        if (b.rescore != null) {
            throw new IllegalArgumentException("[" + NAME + "] [rescore] applies to [k] searches only, not to " + radial
                    + ", which scores every document with its float vector");
        }
        if (b.expandNestedDocs) {
            throw new IllegalArgumentException(
                    "[" + NAME + "] [expand_nested_docs] applies to [k] searches only, not to " + radial
                            + ", which matches every nested document within it already");
        }
    }

    /** Whether this is a radial search ({@code min_score} or {@code max_distance}) rather than the k nearest. */
    public boolean isRadial() {
        return k == null;
    }

    /** A builder holding this query's parameters (not its rewrite state, boost or name). */
    public Builder toBuilder() {
        return builder()
                .field(field)
                .vector(vector)
                .k(k)
                .minScore(minScore)
                .maxDistance(maxDistance)
                .numCandidates(numCandidates)
                .rescore(rescore)
                .filter(filter)
                .ignoreUnmapped(ignoreUnmapped)
                .expandNestedDocs(expandNestedDocs)
                .modelId(modelId)
                .modelDimension(modelDimension)
                .mask(mask)
                .adaptedBy(adaptedBy)
                .counters(counters);
    }

    /** Reads a query sent by another node; this node counts it into {@code counters}. */
    public CompressedKnnQueryBuilder(StreamInput in, CompressCounters counters) throws IOException {
        super(in);
        field = in.readString();
        vector = in.readFloatArray();
        k = in.readOptionalVInt();
        minScore = in.readOptionalFloat();
        maxDistance = in.readOptionalFloat();
        numCandidates = in.readOptionalVInt();
        rescore = in.readOptionalWriteable(RescoreOptions::new);
        filter = in.readOptionalNamedWriteable(QueryBuilder.class);
        ignoreUnmapped = in.readBoolean();
        expandNestedDocs = in.readBoolean();
        modelId = in.readOptionalString();
        modelDimension = in.readOptionalVInt();
        mask = in.readOptionalWriteable(MaskSpec::new);
        adaptedBy = in.readOptionalString();
        adaptedVector = null;
        pendingMask = null;
        this.counters = counters;
    }

    @Override
    protected void doWriteTo(StreamOutput out) throws IOException {
        if (adaptedVector != null || pendingMask != null) {
            throw new IllegalStateException(
                    "[" + NAME + "] cannot be sent while its model or mask is being applied: rewrite it first");
        }
        out.writeString(field);
        out.writeFloatArray(vector);
        out.writeOptionalVInt(k);
        out.writeOptionalFloat(minScore);
        out.writeOptionalFloat(maxDistance);
        out.writeOptionalVInt(numCandidates);
        out.writeOptionalWriteable(rescore);
        out.writeOptionalNamedWriteable(filter);
        out.writeBoolean(ignoreUnmapped);
        out.writeBoolean(expandNestedDocs);
        out.writeOptionalString(modelId);
        out.writeOptionalVInt(modelDimension);
        out.writeOptionalWriteable(mask);
        out.writeOptionalString(adaptedBy);
    }

    public String field() {
        return field;
    }

    public float[] vector() {
        return vector;
    }

    /** Hits per shard; null for a radial search. */
    public Integer k() {
        return k;
    }

    public Float minScore() {
        return minScore;
    }

    public Float maxDistance() {
        return maxDistance;
    }

    public Integer numCandidates() {
        return numCandidates;
    }

    public RescoreOptions rescore() {
        return rescore;
    }

    public QueryBuilder filter() {
        return filter;
    }

    public boolean ignoreUnmapped() {
        return ignoreUnmapped;
    }

    public boolean expandNestedDocs() {
        return expandNestedDocs;
    }

    public String modelId() {
        return modelId;
    }

    public Integer modelDimension() {
        return modelDimension;
    }

    /** The model whose output {@link #vector} is, once the rewrite has applied it; null otherwise. */
    public String adaptedBy() {
        return adaptedBy;
    }

    public MaskSpec mask() {
        return mask;
    }

    @Override
    public String getWriteableName() {
        return NAME;
    }

    @Override
    protected void doXContent(XContentBuilder builder, Params params) throws IOException {
        builder.startObject(NAME);
        builder.field("field", field);
        builder.array("vector", vector);
        if (k != null) {
            builder.field("k", k);
        }
        if (minScore != null) {
            builder.field("min_score", minScore);
        }
        if (maxDistance != null) {
            builder.field("max_distance", maxDistance);
        }
        if (numCandidates != null) {
            builder.field("num_candidates", numCandidates);
        }
        if (rescore != null) {
            rescore.toXContent(builder);
        }
        if (filter != null) {
            builder.field("filter", filter);
        }
        if (ignoreUnmapped) {
            builder.field("ignore_unmapped", true);
        }
        if (expandNestedDocs) {
            builder.field("expand_nested_docs", true);
        }
        if (modelId != null) {
            builder.field("model_id", modelId);
        }
        if (modelDimension != null) {
            builder.field("model_dimension", modelDimension);
        }
        if (mask != null) {
            mask.toXContent(builder);
        }
        printBoostAndQueryName(builder);
        builder.endObject();
    }

    @Override
    protected QueryBuilder doRewrite(QueryRewriteContext context) throws IOException {
        if (modelId != null) {
            return adaptVector(context);
        }
        if (mask != null && mask.isResolved() == false) {
            return MaskRewrite.resolve(this, context);
        }
        if (filter == null) {
            return this;
        }
        QueryBuilder rewrittenFilter = filter.rewrite(context);
        if (rewrittenFilter == filter) {
            return this;
        }
        return rebuilt(toBuilder().filter(rewrittenFilter));
    }

    /** The query {@code changed} describes, with this query's boost and name. */
    CompressedKnnQueryBuilder rebuilt(Builder changed) {
        return changed.build().boost(boost).queryName(queryName);
    }

    /**
     * First rewrite: registers the model call and answers a copy waiting for it. Once the rewrite
     * loop has run the call, that copy rewrites to a query on the adapted vector without model id
     * (its mask, if any, is resolved next), so shards receive a ready vector.
     */
    private QueryBuilder adaptVector(QueryRewriteContext context) {
        if (adaptedVector == null) {
            SetOnce<float[]> adapted = new SetOnce<>();
            AdaptQueryVectorRequest request =
                    new AdaptQueryVectorRequest(modelId, modelDimension, vector, field, searchedIndices(context));
            context.registerAsyncAction((client, listener) -> client.execute(
                    AdaptQueryVectorAction.INSTANCE,
                    request,
                    ActionListener.wrap(
                            response -> {
                                adapted.set(response.vector());
                                listener.onResponse(null);
                            },
                            listener::onFailure)));
            return rebuilt(toBuilder().adaptedVector(adapted::get));
        }
        float[] adapted = adaptedVector.get();
        if (adapted == null) {
            return this;
        }
        return rebuilt(
                toBuilder().vector(adapted).modelId(null).modelDimension(null).adaptedBy(modelId));
    }

    /**
     * The indices a search names, for the model's output to fit the field there; null outside a search, and for a
     * point-in-time search, whose indices are in its id and not yet resolved when it rewrites.
     */
    private static OriginalIndices searchedIndices(QueryRewriteContext context) {
        QueryCoordinatorContext coordinator = context.convertToCoordinatorContext();
        IndicesRequest searched = coordinator == null ? null : coordinator.getSearchRequest();
        return searched == null || pointInTime(searched) ? null : new OriginalIndices(searched);
    }

    /** Whether a search reads a point in time, whose indices its id holds, not the request. */
    static boolean pointInTime(IndicesRequest searched) {
        return searched instanceof SearchRequest search && search.pointInTimeBuilder() != null;
    }

    @Override
    protected Query doToQuery(QueryShardContext context) throws IOException {
        return ShardQueryFactory.create(this, context);
    }

    /** The computation a mask waits for during rewrite; null when none is pending. */
    Supplier<MaskSpec> pendingMask() {
        return pendingMask;
    }

    CompressCounters counters() {
        return counters;
    }

    @Override
    protected boolean doEquals(CompressedKnnQueryBuilder other) {
        return field.equals(other.field)
                && Arrays.equals(vector, other.vector)
                && Objects.equals(k, other.k)
                && Objects.equals(minScore, other.minScore)
                && Objects.equals(maxDistance, other.maxDistance)
                && Objects.equals(numCandidates, other.numCandidates)
                && Objects.equals(rescore, other.rescore)
                && Objects.equals(filter, other.filter)
                && ignoreUnmapped == other.ignoreUnmapped
                && expandNestedDocs == other.expandNestedDocs
                && Objects.equals(modelId, other.modelId)
                && Objects.equals(modelDimension, other.modelDimension)
                && Objects.equals(mask, other.mask)
                && Objects.equals(adaptedVector, other.adaptedVector)
                && Objects.equals(pendingMask, other.pendingMask);
    }

    @Override
    protected int doHashCode() {
        return Objects.hash(
                field,
                Arrays.hashCode(vector),
                k,
                minScore,
                maxDistance,
                numCandidates,
                rescore,
                filter,
                ignoreUnmapped,
                expandNestedDocs,
                modelId,
                modelDimension,
                mask,
                adaptedVector,
                pendingMask);
    }
}
