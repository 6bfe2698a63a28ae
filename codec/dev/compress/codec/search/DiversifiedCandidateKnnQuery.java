package dev.compress.codec.search;

import java.io.IOException;
import java.util.Arrays;
import java.util.Comparator;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.TimeLimitingKnnCollectorManager;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.VectorScorer;
import org.apache.lucene.search.Weight;
import org.apache.lucene.search.join.BitSetProducer;
import org.apache.lucene.search.join.DiversifyingChildrenFloatKnnVectorQuery;
import org.apache.lucene.util.BitSet;
import org.apache.lucene.util.Bits;

/**
 * The first phase of {@link RescoringKnnQuery} on vectors of nested (child) documents: Lucene's
 * diversifying kNN query keeps each parent's best child, for {@code numCandidates} parents per
 * segment, so that a parent with many close children takes one place among the k, not several.
 * Each segment then keeps its best {@code finalK} parents, as {@link CandidateKnnQuery} does.
 *
 * <p>With {@code rescore}, the walk's choice of a parent's best child is an estimate too: every
 * child of each candidate parent (live, passing the filter) is scored again with the field's
 * rescorer and the parent keeps its best, so a parent ranks by its truly nearest child.
 */
final class DiversifiedCandidateKnnQuery extends DiversifyingChildrenFloatKnnVectorQuery {

    private final String field;
    private final float[] target;
    private final BitSetProducer parents;
    private final int finalK;
    private final boolean rescore;

    DiversifiedCandidateKnnQuery(
            String field,
            float[] target,
            Query filter,
            int numCandidates,
            BitSetProducer parents,
            int finalK,
            boolean rescore) {
        super(field, target, filter, numCandidates, parents);
        this.field = field;
        this.target = target;
        this.parents = parents;
        this.finalK = finalK;
        this.rescore = rescore;
    }

    @Override
    protected TopDocs searchLeaf(
            LeafReaderContext context, Weight filterWeight, TimeLimitingKnnCollectorManager collectors)
            throws IOException {
        TopDocs candidates = super.searchLeaf(context, filterWeight, collectors);
        ScoreDoc[] hits = candidates.scoreDocs;
        if (rescore && hits.length > 0) {
            hits = bestChildrenRescored(context, filterWeight, hits);
        }
        return new TopDocs(candidates.totalHits, CandidateKnnQuery.best(hits, finalK));
    }

    /** For each candidate's parent, its best live child that passes the filter, by the rescorer's score. */
    private ScoreDoc[] bestChildrenRescored(LeafReaderContext context, Weight filterWeight, ScoreDoc[] candidates)
            throws IOException {
        BitSet parentBits = parents.getBitSet(context);
        int[] parentDocs = Arrays.stream(candidates)
                .mapToInt(c -> parentBits.nextSetBit(c.doc - context.docBase))
                .sorted()
                .distinct()
                .toArray();
        Bits live = context.reader().getLiveDocs();
        Scorer filter = filterWeight == null ? null : filterWeight.scorer(context);
        DocIdSetIterator allowed = filter == null ? null : filter.iterator();
        FloatVectorValues values = context.reader().getFloatVectorValues(field);
        VectorScorer scorer = values.rescorer(target);
        DocIdSetIterator withVector = scorer.iterator();
        ScoreDoc[] best = new ScoreDoc[parentDocs.length];
        int count = 0;
        for (int parent : parentDocs) {
            int firstChild = parent == 0 ? 0 : parentBits.prevSetBit(parent - 1) + 1;
            ScoreDoc top = null;
            for (int child = firstChild; child < parent; child++) {
                if ((live != null && live.get(child) == false) || excluded(allowed, child)) {
                    continue;
                }
                if (withVector.docID() < child) {
                    withVector.advance(child);
                }
                if (withVector.docID() == child) {
                    float score = scorer.score();
                    if (top == null || score > top.score) {
                        top = new ScoreDoc(context.docBase + child, score);
                    }
                }
            }
            if (top != null) {
                best[count++] = top;
            }
        }
        ScoreDoc[] found = Arrays.copyOf(best, count);
        Arrays.sort(found, Comparator.comparingInt(d -> d.doc));
        return found;
    }

    /** Whether {@code doc} is not in {@code allowed} (null: every document is), advancing it. */
    private static boolean excluded(DocIdSetIterator allowed, int doc) throws IOException {
        if (allowed == null) {
            return false;
        }
        if (allowed.docID() < doc) {
            allowed.advance(doc);
        }
        return allowed.docID() != doc;
    }

    @Override
    protected TopDocs mergeLeafResults(TopDocs[] perLeafResults) {
        return TopDocs.merge(finalK, perLeafResults);
    }
}
