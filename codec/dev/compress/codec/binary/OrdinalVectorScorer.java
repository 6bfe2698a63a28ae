package dev.compress.codec.binary;

import java.io.IOException;
import org.apache.lucene.index.KnnVectorValues;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.VectorScorer;
import org.apache.lucene.util.hnsw.RandomVectorScorer;

/** A {@link VectorScorer} that scores the current document's ordinal with a random scorer. */
final class OrdinalVectorScorer implements VectorScorer {

    private final KnnVectorValues.DocIndexIterator iterator;
    private final RandomVectorScorer scorer;

    OrdinalVectorScorer(KnnVectorValues.DocIndexIterator iterator, RandomVectorScorer scorer) {
        this.iterator = iterator;
        this.scorer = scorer;
    }

    @Override
    public float score() throws IOException {
        return scorer.score(iterator.index());
    }

    @Override
    public DocIdSetIterator iterator() {
        return iterator;
    }
}
