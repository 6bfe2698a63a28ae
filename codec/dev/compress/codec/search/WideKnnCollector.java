package dev.compress.codec.search;

import org.apache.lucene.search.AbstractKnnCollector;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.TotalHits;
import org.apache.lucene.search.knn.KnnSearchStrategy;
import org.apache.lucene.util.hnsw.NeighborQueue;

/**
 * Walks the graph with a beam of {@code k} but returns the best {@code keep >= k} of every node the
 * walk collected. The beam's minimum is what the walk prunes with, so the walk visits exactly the
 * nodes a {@code k} beam visits; the nodes that entered the beam and were later pushed out of it by
 * higher approximate scores stay candidates. For approximate scores that are rescored afterwards,
 * these are the near misses the approximation ranked wrongly, found at no extra walking.
 */
final class WideKnnCollector extends AbstractKnnCollector {

    private final NeighborQueue beam;
    private final NeighborQueue kept;
    private final int keep;

    WideKnnCollector(int k, int keep, long visitLimit, KnnSearchStrategy searchStrategy) {
        super(k, visitLimit, searchStrategy);
        if (keep < k) {
            throw new IllegalArgumentException("keep must be >= k, got keep=" + keep + ", k=" + k);
        }
        this.keep = keep;
        this.beam = new NeighborQueue(k, false);
        this.kept = new NeighborQueue(keep, false);
    }

    @Override
    public boolean collect(int docId, float similarity) {
        kept.insertWithOverflow(docId, similarity);
        return beam.insertWithOverflow(docId, similarity);
    }

    @Override
    public float minCompetitiveSimilarity() {
        return beam.size() >= k() ? beam.topScore() : Float.NEGATIVE_INFINITY;
    }

    @Override
    public int numCollected() {
        return kept.size();
    }

    @Override
    public TopDocs topDocs() {
        ScoreDoc[] hits = new ScoreDoc[kept.size()];
        for (int i = hits.length - 1; i >= 0; i--) {
            hits[i] = new ScoreDoc(kept.topNode(), kept.topScore());
            kept.pop();
        }
        TotalHits.Relation relation =
                earlyTerminated() ? TotalHits.Relation.GREATER_THAN_OR_EQUAL_TO : TotalHits.Relation.EQUAL_TO;
        return new TopDocs(new TotalHits(visitedCount(), relation), hits);
    }

    @Override
    public String toString() {
        return "WideKnnCollector[k=" + k() + ", keep=" + keep + ", size=" + kept.size() + "]";
    }
}
