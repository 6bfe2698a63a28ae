package dev.compress.bwc;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.compress.plugin.codec.DerivedSourceCodec;
import dev.compress.plugin.codec.DerivedSourceStoredFieldsFormat;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.codecs.FilterCodec;
import org.apache.lucene.codecs.StoredFieldsFormat;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.KeywordField;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.util.BytesRef;

/**
 * The backward-compatibility resource of vectors out of {@code _source}: {@code
 * derived-source-<N>.zip} (N: {@link DerivedSourceStoredFieldsFormat#VERSION_CURRENT}), a Lucene index
 * written under {@link DerivedSourceCodec#NAME} whose stored sources hold placeholders for the
 * {@code floats} and {@code bits} vectors, with {@code sources.json} (each id's source as sent)
 * beside its files. Written as {@link BackwardCompatibilityResources} writes the others, never over
 * an existing one; when to add one: {@link DerivedSourceBackwardCompatibilityTests}.
 */
final class DerivedSourceResource {

    static final String SOURCES = "sources.json";
    private static final int DOCS = 300;
    private static final ObjectMapper JSON = new ObjectMapper();

    private DerivedSourceResource() {}

    static String name(int version) {
        return "derived-source-" + version + ".zip";
    }

    static void write(Path zip) throws IOException {
        BackwardCompatibilityResources.zipIndex(zip, SOURCES, directory -> {
            Random random = new Random(22);
            Map<String, String> sources = new TreeMap<>();
            IndexWriterConfig config = new IndexWriterConfig().setCodec(codec()).setUseCompoundFile(false);
            try (IndexWriter writer = new IndexWriter(directory, config)) {
                for (int i = 0; i < DOCS; i++) {
                    String source = addDocument(writer, i, random);
                    sources.put(Integer.toString(i), source);
                    if (i == DOCS / 3 || i == 2 * DOCS / 3) {
                        writer.commit();
                    }
                }
                writer.forceMerge(2);
                writer.commit();
            }
            return sources;
        });
    }

    /** Unzips the resource into {@code target}; returns each id's source as sent. */
    static Map<String, String> unzip(InputStream zip, Path target) throws IOException {
        Map<String, String> sources = null;
        try (ZipInputStream in = new ZipInputStream(zip)) {
            for (ZipEntry entry; (entry = in.getNextEntry()) != null; ) {
                if (entry.getName().equals(SOURCES)) {
                    sources = JSON.readerForMapOf(String.class).readValue(in.readAllBytes());
                } else {
                    try (OutputStream out = Files.newOutputStream(target.resolve(entry.getName()))) {
                        in.transferTo(out);
                    }
                }
            }
        }
        if (sources == null) {
            throw new IOException("the resource has no " + SOURCES);
        }
        return sources;
    }

    /** Our vector formats, and stored fields that take the {@code floats} and {@code bits} vectors out of {@code _source}. */
    private static Codec codec() {
        Codec vectors = BackwardCompatibilityIndex.codec();
        StoredFieldsFormat stored = new DerivedSourceStoredFieldsFormat(
                vectors.storedFieldsFormat(),
                vectors.knnVectorsFormat(),
                () -> Set.of(BackwardCompatibilityIndex.FLOATS, BackwardCompatibilityIndex.BITS));
        return new FilterCodec(DerivedSourceCodec.NAME, vectors) {
            @Override
            public StoredFieldsFormat storedFieldsFormat() {
                return stored;
            }
        };
    }

    /** One in ten documents has no {@code floats}; the codes-only field stays in {@code _source}. */
    private static String addDocument(IndexWriter writer, int i, Random random) throws IOException {
        Document doc = new Document();
        doc.add(new KeywordField(BackwardCompatibilityIndex.ID, Integer.toString(i), Field.Store.YES));
        StringBuilder source = new StringBuilder("{\"title\":\"doc ").append(i).append('"');
        for (String field : List.of(
                BackwardCompatibilityIndex.FLOATS, BackwardCompatibilityIndex.BITS, BackwardCompatibilityIndex.CODES)) {
            if (field.equals(BackwardCompatibilityIndex.FLOATS) && i % 10 == 3) {
                continue;
            }
            float[] v = new float[BackwardCompatibilityResources.DIMENSION];
            StringBuilder array = new StringBuilder("[");
            for (int j = 0; j < v.length; j++) {
                v[j] = (float) random.nextGaussian();
                array.append(j == 0 ? "" : ",").append(v[j]);
            }
            doc.add(new KnnFloatVectorField(field, v, VectorSimilarityFunction.COSINE));
            source.append(",\"").append(field).append("\":").append(array).append(']');
        }
        String json = source.append('}').toString();
        doc.add(new StoredField(DerivedSourceStoredFieldsFormat.SOURCE_FIELD, new BytesRef(json)));
        writer.addDocument(doc);
        return json;
    }
}
