package dev.compress.bench.jmh;

import dev.compress.codec.binary.BinaryCodeOptions;
import dev.compress.codec.binary.BinaryFlatVectorsFormat;
import dev.compress.harness.BenchData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.codecs.FilterCodec;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.KnnVectorsReader;
import org.apache.lucene.codecs.hnsw.FlatVectorScorerUtil;
import org.apache.lucene.codecs.hnsw.FlatVectorsReader;
import org.apache.lucene.codecs.lucene104.Lucene104ScalarQuantizedVectorsFormat;
import org.apache.lucene.codecs.lucene104.Lucene104ScalarQuantizedVectorsFormat.ScalarEncoding;
import org.apache.lucene.codecs.lucene99.Lucene99FlatVectorsFormat;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.index.CodecReader;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.MMapDirectory;
import org.apache.lucene.util.IOUtils;
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

    private static final String FIELD = "v";
    private static final int CANDIDATES = 1024;

    @Param({"float32", "lucene-osq-1bit", "ours-binary"})
    public String format;

    @Param({"100000"})
    public int docs;

    private Path path;
    private Directory dir;
    private IndexWriter writer;
    private DirectoryReader reader;
    private RandomVectorScorer scorer;
    private int[] ords;

    static KnnVectorsFormat flatFormat(String name) {
        return switch (name) {
            case "float32" -> new Lucene99FlatVectorsFormat(FlatVectorScorerUtil.getLucene99FlatVectorsScorer());
            case "lucene-osq-1bit" -> new Lucene104ScalarQuantizedVectorsFormat(ScalarEncoding.SINGLE_BIT_QUERY_NIBBLE);
            case "ours-binary" -> new BinaryFlatVectorsFormat(new BinaryCodeOptions(true, true));
            default -> throw new IllegalArgumentException("unknown format " + name);
        };
    }

    @Setup(Level.Trial)
    public void build() throws IOException {
        BenchData data = BenchData.synthetic(docs, 16, 384, 42);
        path = Files.createTempDirectory("candidate-scoring-");
        dir = new MMapDirectory(path);
        // The flat format is the codec's vector format itself (no per-field wrapper, whose reader looks
        // formats up by name, and flat formats have none), read through the writer's near-real-time
        // reader, which keeps the codec instance.
        KnnVectorsFormat flat = flatFormat(format);
        Codec codec = new FilterCodec(Codec.getDefault().getName(), Codec.getDefault()) {
            @Override
            public KnnVectorsFormat knnVectorsFormat() {
                return flat;
            }
        };
        writer = new IndexWriter(dir, new IndexWriterConfig().setCodec(codec).setRAMBufferSizeMB(512));
        for (float[] vector : data.corpus()) {
            Document doc = new Document();
            doc.add(new KnnFloatVectorField(FIELD, vector, VectorSimilarityFunction.DOT_PRODUCT));
            writer.addDocument(doc);
        }
        writer.forceMerge(1);
        reader = DirectoryReader.open(writer);
        KnnVectorsReader vectors = ((CodecReader) reader.leaves().get(0).reader()).getVectorReader();
        scorer = ((FlatVectorsReader) vectors).getRandomVectorScorer(FIELD, data.queries()[0]);
        Random random = new Random(7);
        ords = new int[CANDIDATES];
        for (int i = 0; i < ords.length; i++) {
            ords[i] = random.nextInt(docs);
        }
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
        IOUtils.close(reader, writer, dir);
        IOUtils.rm(path);
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
