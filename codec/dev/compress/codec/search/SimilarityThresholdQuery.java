package dev.compress.codec.search;

import java.io.IOException;
import java.util.Arrays;
import java.util.Objects;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.Explanation;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.QueryVisitor;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.ScorerSupplier;
import org.apache.lucene.search.TwoPhaseIterator;
import org.apache.lucene.search.VectorScorer;
import org.apache.lucene.search.Weight;

/**
 * Radial search: every document whose vector scores at least {@code minScore} against the target,
 * scored with the field's {@link FloatVectorValues#rescorer}, which is exact wherever the format
 * keeps float vectors (float fields, binary fields with stored floats).
 *
 * <p>Every vector of a segment is a candidate, confirmed by its score: a graph walk bounded by the
 * threshold (Lucene's {@code FloatVectorSimilarityQuery}) can stop short of documents inside the
 * radius, while a radial query promises all of them. The cost is one similarity per document with a
 * vector; combined with a filter in a conjunction, only the documents the filter lets through are
 * scored, since the threshold check is the second phase of a two-phase iterator.
 *
 * <p>The score of a hit is its similarity score times the query's boost; the threshold applies to
 * the unboosted score.
 */
public final class SimilarityThresholdQuery extends Query {

    private final String field;
    private final float[] target;
    private final float minScore;

    public SimilarityThresholdQuery(String field, float[] target, float minScore) {
        if (Float.isFinite(minScore) == false) {
            throw new IllegalArgumentException("minScore must be finite, got " + minScore);
        }
        this.field = Objects.requireNonNull(field, "field");
        this.target = target.clone();
        this.minScore = minScore;
    }

    @Override
    public Weight createWeight(IndexSearcher searcher, ScoreMode scoreMode, float boost) {
        return new Weight(this) {
            @Override
            public ScorerSupplier scorerSupplier(LeafReaderContext context) throws IOException {
                ThresholdScorer scorer = thresholdScorer(context, boost);
                return scorer == null ? null : new DefaultScorerSupplier(scorer);
            }

            @Override
            public Explanation explain(LeafReaderContext context, int doc) throws IOException {
                ThresholdScorer scorer = thresholdScorer(context, boost);
                if (scorer != null) {
                    TwoPhaseIterator twoPhase = scorer.twoPhaseIterator();
                    if (twoPhase.approximation().advance(doc) == doc) {
                        boolean within = twoPhase.matches();
                        String comparison = "score " + scorer.unboostedScore() + (within ? " >= " : " < ")
                                + "min_score " + minScore;
                        return within ? Explanation.match(scorer.score(), comparison) : Explanation.noMatch(comparison);
                    }
                }
                return Explanation.noMatch("no vector in field [" + field + "]");
            }

            @Override
            public boolean isCacheable(LeafReaderContext context) {
                return true;
            }
        };
    }

    private ThresholdScorer thresholdScorer(LeafReaderContext context, float boost) throws IOException {
        FloatVectorValues values = context.reader().getFloatVectorValues(field);
        if (values == null) {
            return null;
        }
        VectorScorer vectors = values.rescorer(target);
        return vectors == null ? null : new ThresholdScorer(vectors, minScore, boost, target.length);
    }

    /** Walks every vector of a segment; a document matches when its score reaches the threshold. */
    private static final class ThresholdScorer extends Scorer {
        private final DocIdSetIterator approximation;
        private final TwoPhaseIterator twoPhase;
        private final float boost;
        private float score;

        ThresholdScorer(VectorScorer vectors, float minScore, float boost, int dims) {
            this.approximation = vectors.iterator();
            this.boost = boost;
            this.twoPhase = new TwoPhaseIterator(approximation) {
                @Override
                public boolean matches() throws IOException {
                    score = vectors.score();
                    return score >= minScore;
                }

                /** One multiply-add per dimension. */
                @Override
                public float matchCost() {
                    return dims;
                }
            };
        }

        float unboostedScore() {
            return score;
        }

        @Override
        public int docID() {
            return approximation.docID();
        }

        @Override
        public DocIdSetIterator iterator() {
            return TwoPhaseIterator.asDocIdSetIterator(twoPhase);
        }

        @Override
        public TwoPhaseIterator twoPhaseIterator() {
            return twoPhase;
        }

        /** Set by the match check, which runs before any document is scored. */
        @Override
        public float score() {
            return score * boost;
        }

        /** Inner-product scores have no upper bound. */
        @Override
        public float getMaxScore(int upTo) {
            return Float.POSITIVE_INFINITY;
        }
    }

    @Override
    public void visit(QueryVisitor visitor) {
        if (visitor.acceptField(field)) {
            visitor.visitLeaf(this);
        }
    }

    @Override
    public String toString(String defaultField) {
        return "SimilarityThresholdQuery(field=" + field + ", minScore=" + minScore + ")";
    }

    @Override
    public boolean equals(Object other) {
        return sameClassAs(other)
                && field.equals(((SimilarityThresholdQuery) other).field)
                && Arrays.equals(target, ((SimilarityThresholdQuery) other).target)
                && minScore == ((SimilarityThresholdQuery) other).minScore;
    }

    @Override
    public int hashCode() {
        return Objects.hash(classHash(), field, Arrays.hashCode(target), minScore);
    }
}
