package dev.compress.codec.search;

import java.io.IOException;
import java.util.Arrays;
import java.util.Objects;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.QueryVisitor;

/**
 * k nearest neighbours on a vector field with oversampling and optional exact rescoring.
 *
 * <p>In every segment, the graph is searched for {@code ceil(k * oversample)} candidates (the
 * search beam, like {@code num_candidates}), honouring {@code filter} and deleted documents
 * (through Lucene's accept-docs, falling back to an exact scan when the filter leaves too few
 * documents). With {@code rescore}, the candidates are then scored again with the field's
 * {@code FloatVectorValues#rescorer} and the segment keeps its top k; the segments' top k are
 * merged into the global top k.
 *
 * <p>Scores, by field format:
 *
 * <ul>
 *   <li>binary field with stored floats, rescore on: Lucene's score of the field similarity
 *       between the float query and the stored float vector (dot product: {@code (1 + dot) / 2};
 *       cosine: {@code (1 + cos) / 2}; Euclidean: {@code 1 / (1 + d^2)});
 *   <li>binary field, codes only, rescore on: the same score of the similarity estimated from the
 *       code and its corrections in float arithmetic ({@code SignCodeEstimator#exactSignDot});
 *   <li>binary field, rescore off: the same score of the similarity estimated with the query
 *       quantised to 4 bits, which is what the graph walk ranked by;
 *   <li>float field: Lucene's score of the field similarity in both cases (rescoring recomputes
 *       the same exact score; oversampling still widens the search beam).
 * </ul>
 *
 * All are monotonic in their underlying (exact or estimated) similarity.
 */
public final class RescoringKnnQuery extends Query {

    private final String field;
    private final float[] target;
    private final int k;
    private final float oversample;
    private final Query filter;
    private final boolean rescore;
    private final boolean rescoreHits;
    private final ParentJoin join;

    /**
     * @param field the vector field
     * @param target the float query vector (adapted / truncated to the field's dimension)
     * @param k the number of hits to return
     * @param oversample candidates per segment as a multiple of k (>= 1)
     * @param filter documents allowed to match, or null for all
     * @param rescore whether to rescore candidates with full-fidelity vectors
     */
    public RescoringKnnQuery(String field, float[] target, int k, float oversample, Query filter, boolean rescore) {
        this(field, target, k, oversample, filter, rescore, null);
    }

    /**
     * The same on the vectors of nested (child) documents: hits are the best child of each of the k
     * nearest parents, or all their children ({@link DiversifiedCandidateKnnQuery}).
     *
     * @param join how to join the field's documents to their parents, or null when they are not nested
     */
    public RescoringKnnQuery(
            String field, float[] target, int k, float oversample, Query filter, boolean rescore, ParentJoin join) {
        this(field, target, k, oversample, filter, rescore, false, join);
    }

    /**
     * k nearest on a field whose graph walk scores exactly (float vectors), with each segment's hits
     * scored again with the field's rescorer: Lucene's graph scorer and its rescorer compute the same
     * similarity in different order, a float rounding apart, and radial search scores with the
     * rescorer ({@link SimilarityThresholdQuery}), so that a hit's score given back as a threshold
     * finds the hit again. Only the hits are scored again, not the beam.
     */
    public static RescoringKnnQuery exactFloat(
            String field, float[] target, int k, float oversample, Query filter, ParentJoin join) {
        return new RescoringKnnQuery(field, target, k, oversample, filter, false, true, join);
    }

    private RescoringKnnQuery(
            String field,
            float[] target,
            int k,
            float oversample,
            Query filter,
            boolean rescore,
            boolean rescoreHits,
            ParentJoin join) {
        if (k < 1) {
            throw new IllegalArgumentException("k must be at least 1, got " + k);
        }
        if (!(oversample >= 1f) || Float.isInfinite(oversample)) {
            throw new IllegalArgumentException("oversample must be a finite number >= 1, got " + oversample);
        }
        this.field = Objects.requireNonNull(field, "field");
        this.target = target.clone();
        this.k = k;
        this.oversample = oversample;
        this.filter = filter;
        this.rescore = rescore;
        this.rescoreHits = rescoreHits;
        this.join = join;
    }

    /** Candidates searched per segment: {@code ceil(k * oversample)}. */
    public int candidatesPerSegment() {
        return (int) Math.min(Integer.MAX_VALUE, (long) Math.ceil(k * (double) oversample));
    }

    @Override
    public Query rewrite(IndexSearcher searcher) throws IOException {
        if (join != null) {
            return new DiversifiedCandidateKnnQuery(
                            field, target, filter, candidatesPerSegment(), join, k, rescore, rescoreHits)
                    .rewrite(searcher);
        }
        return new CandidateKnnQuery(field, target, candidatesPerSegment(), filter, k, rescore, rescoreHits)
                .rewrite(searcher);
    }

    @Override
    public void visit(QueryVisitor visitor) {
        if (visitor.acceptField(field)) {
            visitor.visitLeaf(this);
        }
    }

    @Override
    public String toString(String defaultField) {
        return "RescoringKnnQuery(field="
                + field
                + ", k="
                + k
                + ", oversample="
                + oversample
                + ", rescore="
                + rescore
                + (rescoreHits ? ", rescoreHits=true" : "")
                + (filter == null ? "" : ", filter=" + filter)
                + (join == null ? "" : ", join=" + join)
                + ")";
    }

    @Override
    public boolean equals(Object other) {
        return sameClassAs(other)
                && field.equals(((RescoringKnnQuery) other).field)
                && Arrays.equals(target, ((RescoringKnnQuery) other).target)
                && k == ((RescoringKnnQuery) other).k
                && oversample == ((RescoringKnnQuery) other).oversample
                && Objects.equals(filter, ((RescoringKnnQuery) other).filter)
                && rescore == ((RescoringKnnQuery) other).rescore
                && rescoreHits == ((RescoringKnnQuery) other).rescoreHits
                && Objects.equals(join, ((RescoringKnnQuery) other).join);
    }

    @Override
    public int hashCode() {
        return Objects.hash(
                classHash(), field, Arrays.hashCode(target), k, oversample, filter, rescore, rescoreHits, join);
    }
}
