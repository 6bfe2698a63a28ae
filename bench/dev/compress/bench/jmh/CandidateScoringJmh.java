package dev.compress.bench.jmh;

import java.io.IOException;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.codecs.KnnVectorsReader;
import org.apache.lucene.codecs.hnsw.FlatVectorsReader;
import org.apache.lucene.index.CodecReader;
import org.apache.lucene.util.hnsw.RandomVectorScorer;
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
 * The cost of scoring one graph candidate in situ: a flat (graph-less) single-segment index of
 * {@code docs} synthetic 384-d vectors on an mmap'd directory, scored at random ordinals by the
 * format's own query scorer, the one the HNSW walk calls. Per-candidate overheads (seek, copies,
 * corrections, score mapping) show here, not in the array kernels of {@link CodeScanJmh}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class CandidateScoringJmh {

    private static final int CANDIDATES = 1024;

    @Param({"float32", "lucene-osq-1bit", "ours-binary"})
    public String format;

    @Param({"100000"})
    public int docs;

    private FlatIndex index;
    private RandomVectorScorer scorer;
    private int[] ords;

    @Setup(Level.Trial)
    public void build() throws IOException {
        index = new FlatIndex(format, docs);
        KnnVectorsReader vectors = ((CodecReader) index.leaf()).getVectorReader();
        scorer = ((FlatVectorsReader) vectors)
                .getRandomVectorScorer(FlatIndex.FIELD, index.data.queries()[0]);
        Random random = new Random(7);
        ords = new int[CANDIDATES];
        for (int i = 0; i < ords.length; i++) {
            ords[i] = random.nextInt(docs);
        }
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
        index.close();
    }

    @Benchmark
    @OperationsPerInvocation(CANDIDATES)
    public float scoreRandomCandidates() throws IOException {
        float sum = 0;
        for (int ord : ords) {
            sum += scorer.score(ord);
        }
        return sum;
    }
}
