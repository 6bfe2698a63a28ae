package dev.compress.codec.binary;

import java.io.IOException;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.RandomAccessInput;
import org.apache.lucene.util.hnsw.RandomVectorScorerSupplier;
import org.apache.lucene.util.hnsw.UpdateableRandomVectorScorer;

/**
 * Scorers for building a merged segment's graph when floats are stored: the node being linked is
 * taken as the 4-bit query of its own float vector ({@link QuantizedQuery}, one record per ordinal
 * in {@code queries}) and scored against the other nodes' codes, with the estimate a search walks
 * the graph with.
 *
 * <p>Plain Hamming distance between codes ignores the codes' corrections and the query's
 * magnitudes; graphs built on it had lower recall than Lucene's 1-bit OSQ, which builds its merged
 * graphs this way. Recall on merged graphs against OSQ's, budget by budget: {@code bench/run quick
 * codec} with {@code -Dbench.synthetic.docs=100000 -Dbench.synthetic.indexes=float32,osq,binary
 * -Dbench.ram.buffer.mb=16} ({@code docs/benchmarks.md}).
 */
final class MergeGraphScorerSupplier implements RandomVectorScorerSupplier {

    private final BinarizedVectorValues codes;
    private final IndexInput queries;
    private final RandomAccessInput queryRecords;
    private final int recordBytes;

    MergeGraphScorerSupplier(BinarizedVectorValues codes, IndexInput queries) throws IOException {
        this.codes = codes;
        this.queries = queries;
        this.queryRecords = queries.randomAccessSlice(0, queries.length());
        this.recordBytes = QuantizedQuery.recordBytes(codes.dimension());
    }

    @Override
    public UpdateableRandomVectorScorer scorer() throws IOException {
        BinarizedVectorValues others = codes.copy();
        QuantizedQuery query = new QuantizedQuery(codes.dimension(), codes.similarity());
        RecordBatch batch = new RecordBatch(codes.dimension());
        return new UpdateableRandomVectorScorer.AbstractUpdateableRandomVectorScorer(others) {
            @Override
            public void setScoringOrdinal(int node) throws IOException {
                query.read(queryRecords, (long) node * recordBytes);
            }

            @Override
            public float score(int ord) throws IOException {
                return query.score(others, ord);
            }

            @Override
            public float bulkScore(int[] nodes, float[] scores, int numNodes) throws IOException {
                return query.bulkScore(others, batch, nodes, scores, numNodes);
            }
        };
    }

    @Override
    public RandomVectorScorerSupplier copy() throws IOException {
        return new MergeGraphScorerSupplier(codes.copy(), queries.clone());
    }
}
