package dev.compress.bench.jmh;

import dev.compress.harness.BenchData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.codecs.FilterCodec;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.VectorScorer;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.MMapDirectory;
import org.apache.lucene.util.IOUtils;
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
 * each of its {@code k x oversample} candidates: a flat single-segment index of {@code docs}
 * synthetic 384-d vectors on an mmap'd directory, the field's {@code rescorer} advanced to random
 * documents in increasing order. Lucene's float32 reads its {@code .vec} in place; our binary
 * format decodes its packed floats first.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class RescoringJmh {

    private static final String FIELD = "v";
    private static final int CANDIDATES = 160;

    @Param({"float32", "ours-binary"})
    public String format;

    @Param({"100000"})
    public int docs;

    private Path path;
    private Directory dir;
    private IndexWriter writer;
    private DirectoryReader reader;
    private FloatVectorValues values;
    private float[] query;
    private int[] candidates;

    @Setup(Level.Trial)
    public void build() throws IOException {
        BenchData data = BenchData.synthetic(docs, 16, 384, 42);
        path = Files.createTempDirectory("rescoring-");
        dir = new MMapDirectory(path);
        KnnVectorsFormat flat = CandidateScoringJmh.flatFormat(format);
        Codec codec = new FilterCodec(Codec.getDefault().getName(), Codec.getDefault()) {
            @Override
            public KnnVectorsFormat knnVectorsFormat() {
                return flat;
            }
        };
        // read through the writer's near-real-time reader, which keeps the codec instance
        // (CandidateScoringJmh says why)
        writer = new IndexWriter(dir, new IndexWriterConfig().setCodec(codec).setRAMBufferSizeMB(512));
        for (float[] vector : data.corpus()) {
            Document doc = new Document();
            doc.add(new KnnFloatVectorField(FIELD, vector, VectorSimilarityFunction.DOT_PRODUCT));
            writer.addDocument(doc);
        }
        writer.forceMerge(1);
        reader = DirectoryReader.open(writer);
        values = reader.leaves().get(0).reader().getFloatVectorValues(FIELD);
        query = data.queries()[0];
        Random random = new Random(7);
        candidates = random.ints(0, docs).distinct().limit(CANDIDATES).sorted().toArray();
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
        IOUtils.close(reader, writer, dir);
        IOUtils.rm(path);
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
