package dev.compress.bench.jmh;

import java.io.IOException;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.search.DocAndFloatFeatureBuffer;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.VectorScorer;
import org.apache.lucene.util.BitSetIterator;
import org.apache.lucene.util.FixedBitSet;
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
 * The cost of scoring one candidate exactly with the stored floats: a flat single-segment index of
 * {@code docs} synthetic 384-d vectors on an mmap'd directory ({@link FlatIndex}), random documents
 * scored through the field's {@code rescorer} and its bulk interface, in increasing order. Lucene's
 * float32 reads its {@code .vec} in place; our binary format decodes its packed floats first, which
 * a rescored search does only for the candidates its first pass cannot rule out of the top k.
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
    private FixedBitSet candidates;
    private final DocAndFloatFeatureBuffer buffer = new DocAndFloatFeatureBuffer();

    @Setup(Level.Trial)
    public void build() throws IOException {
        index = new FlatIndex(format, docs);
        values = index.leaf().getFloatVectorValues(FlatIndex.FIELD);
        query = index.data.queries()[0];
        Random random = new Random(7);
        candidates = new FixedBitSet(docs);
        random.ints(0, docs).distinct().limit(CANDIDATES).forEach(candidates::set);
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
        index.close();
    }

    @Benchmark
    @OperationsPerInvocation(CANDIDATES)
    public float rescoreCandidates() throws IOException {
        VectorScorer.Bulk bulk = values.rescorer(query).bulk(new BitSetIterator(candidates, CANDIDATES));
        float max = Float.NEGATIVE_INFINITY;
        for (bulk.nextDocsAndScores(DocIdSetIterator.NO_MORE_DOCS, null, buffer);
                buffer.size > 0;
                bulk.nextDocsAndScores(DocIdSetIterator.NO_MORE_DOCS, null, buffer)) {
            for (int i = 0; i < buffer.size; i++) {
                max = Math.max(max, buffer.features[i]);
            }
        }
        return max;
    }
}
