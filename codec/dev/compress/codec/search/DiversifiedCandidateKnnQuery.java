package dev.compress.codec.search;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.TimeLimitingKnnCollectorManager;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.TotalHits;
import org.apache.lucene.search.VectorScorer;
import org.apache.lucene.search.Weight;
import org.apache.lucene.search.join.DiversifyingChildrenFloatKnnVectorQuery;
import org.apache.lucene.util.BitSet;
import org.apache.lucene.util.Bits;

/**
 * The first phase of {@link RescoringKnnQuery} on vectors of nested (child) documents: Lucene's
 * diversifying kNN query keeps each parent's best child, for {@code numCandidates} parents per
 * segment, so that a parent with many close children takes one place among the k, not several.
 * The best {@code finalK} parents are kept, per segment and then per shard, as {@link
 * CandidateKnnQuery} does.
 *
 * <p>With {@code rescore}, the walk's choice of a parent's best child is an estimate too: every
 * child of each candidate parent (live, passing the filter) is scored again with the field's
 * rescorer and the parent keeps its best, so a parent ranks by its truly nearest child. Expanding
 * ({@link ParentJoin#expandChildren}) scores the children the same way and keeps them all as hits.
 *
 * <p>Unlike {@link CandidateKnnQuery}, the walk keeps no near misses: a near-miss parent would bring
 * every one of its children to rescoring, and for the same recall a wider beam costs no more.
 */
final class DiversifiedCandidateKnnQuery extends DiversifyingChildrenFloatKnnVectorQuery {

    private final String field;
    private final float[] target;
    private final ParentJoin join;
    private final int finalK;
    private final boolean rescore;
    private final boolean rescoreHits;

    /** {@code rescore} and {@code rescoreHits} as for {@link CandidateKnnQuery}. */
    DiversifiedCandidateKnnQuery(
            String field,
            float[] target,
            Query filter,
            int numCandidates,
            ParentJoin join,
            int finalK,
            boolean rescore,
            boolean rescoreHits) {
        super(field, target, filter, numCandidates, join.parents());
        this.field = field;
        this.target = target;
        this.join = join;
        this.finalK = finalK;
        this.rescore = rescore;
        this.rescoreHits = rescoreHits;
    }

    /** A child hit, tagged with its parent (global doc id) and whether it is the parent's best child. */
    private static final class ChildHit extends ScoreDoc {
        final int parent;
        final boolean best;

        ChildHit(int doc, float score, int parent, boolean best) {
            super(doc, score);
            this.parent = parent;
            this.best = best;
        }
    }

    @Override
    protected TopDocs searchLeaf(
            LeafReaderContext context, Weight filterWeight, TimeLimitingKnnCollectorManager collectors)
            throws IOException {
        TopDocs candidates = super.searchLeaf(context, filterWeight, collectors);
        if ((rescore || join.expandChildren()) == false || candidates.scoreDocs.length == 0) {
            ScoreDoc[] hits = CandidateKnnQuery.best(candidates.scoreDocs, finalK);
            if (rescoreHits) {
                hits = CandidateKnnQuery.bestScoredOneByOne(context, field, target, hits, finalK);
            }
            return new TopDocs(candidates.totalHits, hits);
        }
        List<ChildHit[]> families = scoredChildren(context, filterWeight, candidates.scoreDocs);
        // families hold their best child first: the segment keeps its best finalK parents
        families.sort(Comparator.comparing((ChildHit[] f) -> f[0], BY_SCORE_THEN_DOC));
        List<ScoreDoc> kept = new ArrayList<>();
        for (ChildHit[] family : families.subList(0, Math.min(finalK, families.size()))) {
            kept.addAll(join.expandChildren() ? Arrays.asList(family) : List.of(family[0]));
        }
        return new TopDocs(candidates.totalHits, kept.toArray(ScoreDoc[]::new));
    }

    private static final Comparator<ScoreDoc> BY_SCORE_THEN_DOC =
            Comparator.comparingDouble((ScoreDoc d) -> -d.score).thenComparingInt(d -> d.doc);

    /**
     * The parents' shard-wide best {@code finalK}; expanded, with all their children. Without
     * expansion each hit is one parent, and Lucene's merge is that of {@link CandidateKnnQuery}.
     */
    @Override
    protected TopDocs mergeLeafResults(TopDocs[] perLeafResults) {
        if (join.expandChildren() == false) {
            return TopDocs.merge(finalK, perLeafResults);
        }
        List<ChildHit> all = new ArrayList<>();
        for (TopDocs leaf : perLeafResults) {
            for (ScoreDoc hit : leaf.scoreDocs) {
                all.add((ChildHit) hit);
            }
        }
        Set<Integer> parents = new HashSet<>();
        all.stream()
                .filter(hit -> hit.best)
                .sorted(BY_SCORE_THEN_DOC)
                .limit(finalK)
                .forEach(hit -> parents.add(hit.parent));
        ScoreDoc[] children = all.stream()
                .filter(hit -> parents.contains(hit.parent))
                .sorted(BY_SCORE_THEN_DOC)
                .toArray(ScoreDoc[]::new);
        return new TopDocs(new TotalHits(children.length, TotalHits.Relation.EQUAL_TO), children);
    }

    /**
     * Per parent of the candidates, its live children that pass the filter and have a vector, scored
     * by the rescorer, best first (ties in doc order).
     */
    private List<ChildHit[]> scoredChildren(LeafReaderContext context, Weight filterWeight, ScoreDoc[] candidates)
            throws IOException {
        BitSet parentBits = join.parents().getBitSet(context);
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
        List<ChildHit[]> families = new ArrayList<>(parentDocs.length);
        for (int parent : parentDocs) {
            int firstChild = parent == 0 ? 0 : parentBits.prevSetBit(parent - 1) + 1;
            List<ScoreDoc> children = new ArrayList<>();
            for (int child = firstChild; child < parent; child++) {
                if ((live != null && live.get(child) == false) || excluded(allowed, child)) {
                    continue;
                }
                if (withVector.docID() < child) {
                    withVector.advance(child);
                }
                if (withVector.docID() == child) {
                    children.add(new ScoreDoc(context.docBase + child, scorer.score()));
                }
            }
            if (children.isEmpty()) {
                continue;
            }
            children.sort(BY_SCORE_THEN_DOC);
            ChildHit[] family = new ChildHit[children.size()];
            for (int i = 0; i < family.length; i++) {
                ScoreDoc child = children.get(i);
                family[i] = new ChildHit(child.doc, child.score, context.docBase + parent, i == 0);
            }
            families.add(family);
        }
        return families;
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
}
