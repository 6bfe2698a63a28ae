package dev.compress.bench.jmh;

import dev.compress.codec.binary.BinaryCodeOptions;
import dev.compress.codec.binary.BinaryFlatVectorsFormat;
import dev.compress.harness.BenchData;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.codecs.FilterCodec;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.hnsw.FlatVectorScorerUtil;
import org.apache.lucene.codecs.lucene104.Lucene104ScalarQuantizedVectorsFormat;
import org.apache.lucene.codecs.lucene104.Lucene104ScalarQuantizedVectorsFormat.ScalarEncoding;
import org.apache.lucene.codecs.lucene99.Lucene99FlatVectorsFormat;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.MMapDirectory;
import org.apache.lucene.util.IOUtils;

/**
 * A flat (graph-less) single-segment index of synthetic 384-d vectors in one field, on an mmap'd
 * temporary directory, written with a flat vector format: what the per-candidate benchmarks read.
 */
final class FlatIndex implements Closeable {

    static final String FIELD = "v";

    final BenchData data;
    private final Path path;
    private final Directory dir;
    private final IndexWriter writer;
    private final DirectoryReader reader;

    /** The flat formats by benchmark parameter name. */
    static KnnVectorsFormat flatFormat(String name) {
        return switch (name) {
            case "float32" -> new Lucene99FlatVectorsFormat(FlatVectorScorerUtil.getLucene99FlatVectorsScorer());
            case "lucene-osq-1bit" -> new Lucene104ScalarQuantizedVectorsFormat(ScalarEncoding.SINGLE_BIT_QUERY_NIBBLE);
            case "ours-binary" -> new BinaryFlatVectorsFormat(new BinaryCodeOptions(true, true));
            default -> throw new IllegalArgumentException("unknown format " + name);
        };
    }

    FlatIndex(String format, int docs) throws IOException {
        data = BenchData.synthetic(docs, 16, 384, 42);
        path = Files.createTempDirectory("flat-index-");
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
    }

    /** The index's one segment. */
    LeafReader leaf() {
        return reader.leaves().get(0).reader();
    }

    @Override
    public void close() throws IOException {
        IOUtils.close(reader, writer, dir);
        IOUtils.rm(path);
    }
}
