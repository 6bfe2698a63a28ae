package dev.compress.codec.binary;

import java.io.IOException;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.search.VectorScorer;
import org.apache.lucene.util.Bits;

/**
 * A binary field whose float32 vectors are stored: values are the exact floats, {@link
 * #scorer} scores the query against codes as the graph search does ({@link SignCodeEstimator}) and
 * {@link #rescorer} scores exactly against the floats.
 */
final class StoredFloatVectorValues extends FloatVectorValues {

    private final FloatVectorValues floats;
    private final BinarizedVectorValues codes;
    private final BinaryFlatVectorsScorer scorer;

    StoredFloatVectorValues(FloatVectorValues floats, BinarizedVectorValues codes, BinaryFlatVectorsScorer scorer) {
        this.floats = floats;
        this.codes = codes;
        this.scorer = scorer;
    }

    @Override
    public float[] vectorValue(int ord) throws IOException {
        return floats.vectorValue(ord);
    }

    @Override
    public int dimension() {
        return floats.dimension();
    }

    @Override
    public int size() {
        return floats.size();
    }

    @Override
    public int ordToDoc(int ord) {
        return floats.ordToDoc(ord);
    }

    @Override
    public Bits getAcceptOrds(Bits acceptDocs) {
        return floats.getAcceptOrds(acceptDocs);
    }

    @Override
    public DocIndexIterator iterator() {
        return floats.iterator();
    }

    @Override
    public StoredFloatVectorValues copy() throws IOException {
        return new StoredFloatVectorValues(floats.copy(), codes.copy(), scorer);
    }

    @Override
    public VectorScorer scorer(float[] target) throws IOException {
        if (size() == 0) {
            return null;
        }
        BinarizedVectorValues scored = codes.copy();
        return new OrdinalVectorScorer(
                floats.copy().iterator(), scorer.getRandomVectorScorer(scored.similarity(), scored, target));
    }

    @Override
    public VectorScorer rescorer(float[] target) throws IOException {
        if (size() == 0) {
            return null;
        }
        return floats.scorer(target); // both float stores score on a copy of their own
    }
}
