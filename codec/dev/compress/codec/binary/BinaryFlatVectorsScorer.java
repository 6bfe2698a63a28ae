package dev.compress.codec.binary;

import java.io.IOException;
import org.apache.lucene.codecs.hnsw.FlatVectorsScorer;
import org.apache.lucene.index.KnnVectorValues;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.util.hnsw.RandomVectorScorer;
import org.apache.lucene.util.hnsw.RandomVectorScorerSupplier;
import org.apache.lucene.util.hnsw.UpdateableRandomVectorScorer;

/**
 * Scores sign codes.
 *
 * <ul>
 *   <li>Code against code ({@link #getRandomVectorScorerSupplier} over codes): Hamming similarity
 *       {@code 1 - hamming / dims} in [0, 1], one XOR-popcount per pair; graph construction when
 *       a merge has no floats. With stored floats, merges take each node as the 4-bit query of
 *       its float vector instead ({@link MergeGraphScorerSupplier}), which gives better graphs
 *       (recall on merged segments: {@code bench/run quick codec} with {@code
 *       -Dbench.ram.buffer.mb=16}).
 *   <li>Float query against codes (graph walk, and the scores of unrescored hits): the
 *       inner-product estimate of {@link SignCodeEstimator} with the query quantised to 4 bits,
 *       mapped to the field similarity's score. The walk does not use the Hamming distance of a
 *       binarised query: binarising the query throws away its magnitudes, and Hamming distance
 *       ignores the codes' corrections, so it ranks the true neighbours clearly lower. Recall of
 *       the estimate without rescoring: the {@code rescore: no} rows of {@code bench/run quick
 *       codec}.
 *   <li>Asymmetric float query against codes ({@link #asymmetricScorer}): the same estimate in
 *       float arithmetic; the rescoring score when no floats are stored.
 * </ul>
 *
 * Values that are not codes (the float vectors an indexing buffer holds before flush, byte vector
 * fields) go to {@code rawScorer}: the segment centre is unknown until flush, so graphs of freshly
 * flushed segments are built on exact similarities, as Lucene's quantized formats do; merged
 * segments, which hold nearly all vectors of a long-lived index, are built on codes.
 */
public final class BinaryFlatVectorsScorer implements FlatVectorsScorer {

    private final FlatVectorsScorer rawScorer;

    public BinaryFlatVectorsScorer(FlatVectorsScorer rawScorer) {
        this.rawScorer = rawScorer;
    }

    @Override
    public RandomVectorScorerSupplier getRandomVectorScorerSupplier(
            VectorSimilarityFunction similarity, KnnVectorValues values) throws IOException {
        if (values instanceof BinarizedVectorValues codes) {
            return new HammingScorerSupplier(codes);
        }
        return rawScorer.getRandomVectorScorerSupplier(similarity, values);
    }

    @Override
    public RandomVectorScorer getRandomVectorScorer(
            VectorSimilarityFunction similarity, KnnVectorValues values, float[] target) throws IOException {
        if (values instanceof BinarizedVectorValues codes) {
            FlatVectorsScorer.checkDimensions(target.length, codes.dimension());
            return new QuantizedQueryScorer(codes, new SignCodeEstimator(target, codes.centroid(), codes.similarity()));
        }
        return rawScorer.getRandomVectorScorer(similarity, values, target);
    }

    @Override
    public RandomVectorScorer getRandomVectorScorer(
            VectorSimilarityFunction similarity, KnnVectorValues values, byte[] target) throws IOException {
        return rawScorer.getRandomVectorScorer(similarity, values, target);
    }

    /** Scores {@code target} against codes with the float-arithmetic estimate. */
    public RandomVectorScorer asymmetricScorer(BinarizedVectorValues codes, float[] target) {
        FlatVectorsScorer.checkDimensions(target.length, codes.dimension());
        SignCodeEstimator estimator = new SignCodeEstimator(target, codes.centroid(), codes.similarity());
        return new RandomVectorScorer.AbstractRandomVectorScorer(codes) {
            @Override
            public float score(int ord) throws IOException {
                float signDot = estimator.exactSignDot(codes.vectorValue(ord));
                return estimator.score(signDot, codes.corrections(ord));
            }
        };
    }

    @Override
    public String toString() {
        return "BinaryFlatVectorsScorer(rawScorer=" + rawScorer + ")";
    }

    /**
     * The 4-bit query against codes. The graph walk scores a node's unvisited neighbours as one
     * batch ({@link QuantizedQuery#bulkScore}).
     */
    private static final class QuantizedQueryScorer extends RandomVectorScorer.AbstractRandomVectorScorer {
        private final BinarizedVectorValues codes;
        private final QuantizedQuery query;
        private final RecordBatch batch;

        QuantizedQueryScorer(BinarizedVectorValues codes, SignCodeEstimator estimator) {
            super(codes);
            this.codes = codes;
            this.query = estimator.quantized();
            this.batch = new RecordBatch(codes.dimension());
        }

        @Override
        public float score(int ord) throws IOException {
            return query.score(codes, ord);
        }

        @Override
        public float bulkScore(int[] nodes, float[] scores, int numNodes) throws IOException {
            return query.bulkScore(codes, batch, nodes, scores, numNodes);
        }
    }

    /** Code-against-code Hamming scorers for graph construction. */
    private static final class HammingScorerSupplier implements RandomVectorScorerSupplier {
        private final BinarizedVectorValues codes;

        HammingScorerSupplier(BinarizedVectorValues codes) {
            this.codes = codes;
        }

        @Override
        public UpdateableRandomVectorScorer scorer() throws IOException {
            BinarizedVectorValues targets = codes.copy();
            BinarizedVectorValues others = codes.copy();
            long[] target = new long[CodeWords.words(codes.dimension())];
            float dims = codes.dimension();
            return new UpdateableRandomVectorScorer.AbstractUpdateableRandomVectorScorer(others) {
                private final RecordBatch batch = new RecordBatch(codes.dimension());

                @Override
                public void setScoringOrdinal(int node) throws IOException {
                    System.arraycopy(targets.codeWords(node), 0, target, 0, target.length);
                }

                @Override
                public float score(int ord) throws IOException {
                    return 1f - CodeWords.xorBitCount(target, others.codeWords(ord)) / dims;
                }

                /** Batched like {@link QuantizedQueryScorer#bulkScore}. */
                @Override
                public float bulkScore(int[] nodes, float[] scores, int numNodes) throws IOException {
                    batch.read(others, nodes, numNodes);
                    float max = Float.NEGATIVE_INFINITY;
                    for (int i = 0; i < numNodes; i++) {
                        scores[i] = 1f - CodeWords.xorBitCount(target, batch.words, i * batch.stride) / dims;
                        max = Math.max(max, scores[i]);
                    }
                    return max;
                }
            };
        }

        @Override
        public RandomVectorScorerSupplier copy() throws IOException {
            return new HammingScorerSupplier(codes.copy());
        }
    }
}
