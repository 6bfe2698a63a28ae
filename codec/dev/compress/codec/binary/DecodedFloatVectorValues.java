package dev.compress.codec.binary;

import java.io.IOException;
import org.apache.lucene.search.VectorScorer;

/**
 * A binary field stored as codes only. Values are decoded codes ({@link SignBinarizer#decode}),
 * the only floats there are; a merge keeps the {@link #codes} instead of reading these ({@link
 * MergedCodeSources}). {@link #scorer} scores with the 4-bit-query estimate the graph walk uses,
 * {@link #rescorer} with the float-arithmetic estimate ({@link SignCodeEstimator}).
 */
final class DecodedFloatVectorValues extends CodeOrderedFloatVectorValues {

    private final BinaryFlatVectorsScorer scorer;
    private final float[] decoded;

    DecodedFloatVectorValues(BinarizedVectorValues codes, BinaryFlatVectorsScorer scorer) {
        super(codes);
        this.scorer = scorer;
        this.decoded = new float[codes.dimension()];
    }

    /** The codes these values decode. */
    BinarizedVectorValues codes() {
        return codes;
    }

    @Override
    public float[] vectorValue(int ord) throws IOException {
        SignBinarizer.decode(codes.vectorValue(ord), codes.centroid(), codes.scale(), decoded);
        return decoded;
    }

    @Override
    public DecodedFloatVectorValues copy() throws IOException {
        return new DecodedFloatVectorValues(codes.copy(), scorer);
    }

    @Override
    public VectorScorer scorer(float[] target) throws IOException {
        if (size() == 0) {
            return null;
        }
        BinarizedVectorValues scored = codes.copy();
        return new OrdinalVectorScorer(
                scored.iterator(), scorer.getRandomVectorScorer(scored.similarity(), scored, target));
    }

    @Override
    public VectorScorer rescorer(float[] target) throws IOException {
        if (size() == 0) {
            return null;
        }
        BinarizedVectorValues scored = codes.copy();
        return new OrdinalVectorScorer(scored.iterator(), scorer.asymmetricScorer(scored, target));
    }
}
