package dev.compress.codec.search;

import dev.compress.codec.TopCandidatesRescorer;
import java.io.IOException;
import java.util.Arrays;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.DocAndFloatFeatureBuffer;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.HitQueue;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TimeLimitingKnnCollectorManager;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.TopKnnCollector;
import org.apache.lucene.search.VectorScorer;
import org.apache.lucene.search.Weight;
import org.apache.lucene.search.knn.KnnCollectorManager;
import org.apache.lucene.util.DocIdSetBuilder;

/**
 * The first phase of {@link RescoringKnnQuery}: Lucene's float kNN query (filter, deleted
 * documents, exact fallback, timeouts) asked for {@code numCandidates} per segment, with each
 * segment's candidates rescored and cut to k before segments are merged. Rescoring per segment,
 * rather than after a global cut, keeps every segment's candidates in play and never compares
 * approximate scores of segments with different centres.
 */
final class CandidateKnnQuery extends KnnFloatVectorQuery {

    private final int finalK;
    private final boolean rescore;
    private final boolean rescoreHits;

    /**
     * @param rescore whether the candidates are scored again with the field's rescorer before the best are kept
     * @param rescoreHits without {@code rescore}: whether the hits kept are scored again with the rescorer (see
     *     {@link RescoringKnnQuery#exactFloat})
     */
    CandidateKnnQuery(
            String field,
            float[] target,
            int numCandidates,
            org.apache.lucene.search.Query filter,
            int finalK,
            boolean rescore,
            boolean rescoreHits) {
        super(field, target, numCandidates, filter);
        this.finalK = finalK;
        this.rescore = rescore;
        this.rescoreHits = rescoreHits;
    }

    /**
     * Near misses rescored per hit asked for. The nodes that enter the walk's beam and are pushed out
     * of it again are the estimate's near misses: the walk has scored them already, so keeping them
     * for rescoring costs only their float reads, and exact scores recover true neighbours the
     * estimate ranked just below the beam. That matters for a narrow beam, which the estimate's
     * errors can push a true neighbour out of; a wide beam already holds the true neighbours, and
     * near misses beyond a few per hit cost float reads without changing the hits. At the default
     * oversample of 3 this keeps twice the beam. Recall@10 and CPU per query at each candidate
     * budget: {@code bench/run quick codec}.
     */
    static final int NEAR_MISSES_PER_HIT = 3;

    /** Candidates a rescoring walk with a beam of {@code beam} keeps for {@code finalK} hits. */
    static int rescoredCandidates(int beam, int finalK) {
        return (int) Math.min(Integer.MAX_VALUE, beam + (long) NEAR_MISSES_PER_HIT * finalK);
    }

    /**
     * Every segment collects the full {@code numCandidates}: Lucene's optimistic collection would
     * shrink small segments' share, which the rescoring phase cannot recover. With rescoring, the
     * walk also keeps {@value #NEAR_MISSES_PER_HIT} near misses per hit ({@link #rescoredCandidates},
     * {@link WideKnnCollector}): the walk is the same, and the near misses get rescored too.
     */
    @Override
    protected KnnCollectorManager getKnnCollectorManager(int k, IndexSearcher searcher) {
        if (rescore) {
            int keep = rescoredCandidates(k, finalK);
            return (visitedLimit, strategy, context) -> new WideKnnCollector(k, keep, visitedLimit, strategy);
        }
        return (visitedLimit, strategy, context) -> new TopKnnCollector(k, visitedLimit, strategy);
    }

    @Override
    protected TopDocs searchLeaf(
            LeafReaderContext context, Weight filterWeight, TimeLimitingKnnCollectorManager collectors)
            throws IOException {
        TopDocs candidates = super.searchLeaf(context, filterWeight, collectors);
        if (rescore == false && rescoreHits) {
            return new TopDocs(
                    candidates.totalHits,
                    bestScoredOneByOne(context, field, target, best(candidates.scoreDocs, finalK), finalK));
        }
        ScoreDoc[] hits = rescore ? rescored(context, candidates.scoreDocs) : candidates.scoreDocs;
        return new TopDocs(candidates.totalHits, best(hits, finalK));
    }

    /**
     * The {@code n} best hits, highest score first and ties in doc order. A bounded queue rather than
     * a sort of all candidates: at large budgets hundreds of candidates are rescored, and sorting them
     * all showed in profiles of million-vector queries, while only {@code n} are kept. CPU time per
     * query: {@code bench/run full codec} with {@code -Dbench.synthetic.docs=1000000}.
     */
    static ScoreDoc[] best(ScoreDoc[] hits, int n) {
        HitQueue queue = new HitQueue(Math.min(n, hits.length), false);
        for (ScoreDoc hit : hits) {
            queue.insertWithOverflow(hit);
        }
        ScoreDoc[] best = new ScoreDoc[queue.size()];
        for (int i = best.length - 1; i >= 0; i--) {
            best[i] = queue.pop();
        }
        return best;
    }

    /**
     * The candidates (global doc ids) with full-fidelity scores: all of them, read in doc order
     * through the rescorer's bulk interface (Lucene's float scorers then score several vectors per
     * pass, so their memory misses overlap), or, where the rescorer can find the best without
     * scoring every candidate exactly ({@link TopCandidatesRescorer}), a subset that holds the
     * segment's best {@code finalK}.
     */
    private ScoreDoc[] rescored(LeafReaderContext context, ScoreDoc[] candidates) throws IOException {
        if (candidates.length == 0) {
            return candidates;
        }
        VectorScorer rescorer = context.reader().getFloatVectorValues(field).rescorer(target);
        if (rescorer instanceof TopCandidatesRescorer top) {
            int[] docs = segmentDocs(context, candidates);
            DocAndFloatFeatureBuffer buffer = new DocAndFloatFeatureBuffer();
            top.rescoreBest(docs, docs.length, finalK, buffer);
            ScoreDoc[] best = new ScoreDoc[buffer.size];
            for (int i = 0; i < buffer.size; i++) {
                best[i] = new ScoreDoc(context.docBase + buffer.docs[i], buffer.features[i]);
            }
            return best;
        }
        return exactScores(context, rescorer, candidates, field);
    }

    /**
     * {@code hits} (global doc ids, each with a vector in {@code field}) scored with the field's
     * {@code rescorer}, in doc order, read through its bulk interface (Lucene's float scorers then
     * score several vectors per pass, so their memory misses overlap).
     */
    static ScoreDoc[] exactScores(LeafReaderContext context, VectorScorer rescorer, ScoreDoc[] hits, String field)
            throws IOException {
        if (hits.length == 0) {
            return hits;
        }
        int[] docs = segmentDocs(context, hits);
        DocIdSetBuilder set = new DocIdSetBuilder(context.reader().maxDoc());
        DocIdSetBuilder.BulkAdder adder = set.grow(docs.length);
        for (int doc : docs) {
            adder.add(doc);
        }
        VectorScorer.Bulk bulk = rescorer.bulk(set.build().iterator());
        DocAndFloatFeatureBuffer buffer = new DocAndFloatFeatureBuffer();
        ScoreDoc[] rescored = new ScoreDoc[hits.length];
        int count = 0;
        for (bulk.nextDocsAndScores(DocIdSetIterator.NO_MORE_DOCS, null, buffer);
                buffer.size > 0;
                bulk.nextDocsAndScores(DocIdSetIterator.NO_MORE_DOCS, null, buffer)) {
            for (int i = 0; i < buffer.size; i++) {
                rescored[count++] = new ScoreDoc(context.docBase + buffer.docs[i], buffer.features[i]);
            }
        }
        if (count != hits.length) {
            throw new IllegalStateException(
                    (hits.length - count) + " of " + hits.length + " candidates have no vector in field " + field);
        }
        return rescored;
    }

    /** The segment's doc ids of {@code hits} (global doc ids), ascending. */
    private static int[] segmentDocs(LeafReaderContext context, ScoreDoc[] hits) {
        int[] docs = new int[hits.length];
        for (int i = 0; i < docs.length; i++) {
            docs[i] = hits[i].doc - context.docBase;
        }
        Arrays.sort(docs);
        return docs;
    }

    /**
     * The best {@code n} of {@code hits} (global doc ids) once scored with the field's rescorer's
     * {@link VectorScorer#score}, one at a time, as radial search scores ({@link
     * SimilarityThresholdQuery}): the bulk interface may round differently.
     */
    static ScoreDoc[] bestScoredOneByOne(
            LeafReaderContext context, String field, float[] target, ScoreDoc[] hits, int n) throws IOException {
        VectorScorer rescorer = context.reader().getFloatVectorValues(field).rescorer(target);
        ScoreDoc[] inDocOrder = hits.clone();
        Arrays.sort(inDocOrder, (a, b) -> Integer.compare(a.doc, b.doc));
        DocIdSetIterator vectors = rescorer.iterator();
        ScoreDoc[] scored = new ScoreDoc[hits.length];
        for (int i = 0; i < inDocOrder.length; i++) {
            int doc = inDocOrder[i].doc - context.docBase;
            if (vectors.docID() < doc) {
                vectors.advance(doc);
            }
            if (vectors.docID() != doc) {
                throw new IllegalStateException("hit " + doc + " has no vector in field " + field);
            }
            scored[i] = new ScoreDoc(inDocOrder[i].doc, rescorer.score());
        }
        return best(scored, n);
    }

    @Override
    protected TopDocs mergeLeafResults(TopDocs[] perLeafResults) {
        return TopDocs.merge(finalK, perLeafResults);
    }
}
