package dev.compress.bench.jmh;

import java.io.IOException;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.VectorScorer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The cost of rescoring one candidate exactly with the stored floats, as a rescored search does for
 * each of its candidates: a flat single-segment index of {@code docs} synthetic 384-d vectors on an
 * mmap'd directory ({@link FlatIndex}), the field's {@code rescorer} advanced to random documents
 * in increasing order. Lucene's float32 reads its {@code .vec} in place; our binary format decodes
 * its packed floats first.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class RescoringJmh {

    private static final int CANDIDATES = 160;

    @Param({"float32", "ours-binary"})
    public String format;

    @Param({"100000"})
    public int docs;

    private FlatIndex index;
    private FloatVectorValues values;
    private float[] query;
    private int[] candidates;

    @Setup(Level.Trial)
    public void build() throws IOException {
        index = new FlatIndex(format, docs);
        values = index.leaf().getFloatVectorValues(FlatIndex.FIELD);
        query = index.data.queries()[0];
        Random random = new Random(7);
        candidates = random.ints(0, docs).distinct().limit(CANDIDATES).sorted().toArray();
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
        index.close();
    }

    @Benchmark
    @OperationsPerInvocation(CANDIDATES)
    public float rescoreCandidates() throws IOException {
        VectorScorer scorer = values.rescorer(query);
        DocIdSetIterator it = scorer.iterator();
        float sum = 0;
        for (int doc : candidates) {
            if (it.docID() < doc) {
                it.advance(doc);
            }
            sum += scorer.score();
        }
        return sum;
    }
}
