package dev.compress.bwc;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.compress.bwc.BackwardCompatibilityIndex.ScoredId;
import dev.compress.codec.binary.BinaryFlatVectorsFormat;
import dev.compress.plugin.codec.DerivedSourceStoredFieldsFormat;
import dev.compress.training.inference.CpuEncoders;
import dev.compress.training.model.ModelArtifact;
import dev.compress.training.model.ModelFile;
import dev.compress.training.model.ModelFileTests;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.KeywordField;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LogDocMergePolicy;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.Version;

/**
 * Writes the backward-compatibility resources under {@code src/test/resources/dev/compress/bwc/}:
 * {@code index-format<N>.zip}, a Lucene index written with our formats (N: the binary format's
 * {@code VERSION_CURRENT}) with {@code expected.json} beside its files, and {@code
 * model-format<N>.bin} with {@code model-format<N>.json} (N: the model file's {@code
 * FORMAT_VERSION}). It never overwrites one: a resource, once committed, is what an older version
 * wrote. When to run it: see {@link IndexBackwardCompatibilityTests}.
 *
 * <pre>
 * mvn -B -ntp -q test-compile dependency:build-classpath -Dmdep.outputFile=target/test-classpath.txt -Dmdep.includeScope=test
 * java --add-modules jdk.incubator.vector -cp target/test-classes:target/classes:$(cat target/test-classpath.txt) \
 *     dev.compress.bwc.BackwardCompatibilityResources [directory]
 * </pre>
 */
public final class BackwardCompatibilityResources {

    static final int DIMENSION = 8;
    /**
     * Documents of each flushed segment. Lucene builds a graph only for a segment of at least 648
     * vectors, so the first gets one at flush, and the two others one when they are merged.
     */
    private static final int[] SEGMENTS = {760, 380, 380};

    private static final int QUERIES = 5;
    private static final int MODEL_INPUTS = 4;
    private static final ObjectMapper JSON = new ObjectMapper();

    private BackwardCompatibilityResources() {}

    static String indexResource(int binaryFlatFormat) {
        return "index-format" + binaryFlatFormat + ".zip";
    }

    static String modelResource(int modelFormat) {
        return "model-format" + modelFormat + ".bin";
    }

    static String modelExpectations(int modelFormat) {
        return "model-format" + modelFormat + ".json";
    }

    public static void main(String[] args) throws IOException {
        Path out = Path.of(args.length > 0 ? args[0] : "src/test/resources/dev/compress/bwc");
        Files.createDirectories(out);
        Path index = out.resolve(indexResource(BinaryFlatVectorsFormat.VERSION_CURRENT));
        if (kept(index) == false) {
            writeIndex(index);
        }
        Path source = out.resolve(DerivedSourceResource.name(DerivedSourceStoredFieldsFormat.VERSION_CURRENT));
        if (kept(source) == false) {
            DerivedSourceResource.write(source);
        }
        Path model = out.resolve(modelResource(ModelFile.FORMAT_VERSION));
        if (kept(model) == false) {
            writeModel(model, out.resolve(modelExpectations(ModelFile.FORMAT_VERSION)));
        }
    }

    /** Whether the resource for a current version exists already, and so is left as it is. */
    private static boolean kept(Path resource) {
        boolean exists = Files.exists(resource);
        if (exists) {
            System.out.println(resource + " exists: kept");
        }
        return exists;
    }

    private static void refuseOverwrite(Path file) throws IOException {
        if (Files.exists(file)) {
            throw new FileAlreadyExistsException(file + ": a written resource is never replaced");
        }
    }

    /**
     * Three flushed segments, the two smaller then merged (the merged graph of a binary field is
     * built from codes), one document in ten without vectors (sparse fields) and a few deleted.
     */
    private static void writeIndex(Path zip) throws IOException {
        zipIndex(zip, IndexBackwardCompatibilityTests.EXPECTATIONS, directory -> {
            Random random = new Random(20);
            float[] offset = gaussian(random, 0.5f);
            LogDocMergePolicy mergePolicy = new LogDocMergePolicy();
            mergePolicy.setNoCFSRatio(0);
            IndexWriterConfig config = new IndexWriterConfig()
                    .setCodec(BackwardCompatibilityIndex.codec())
                    .setUseCompoundFile(false)
                    .setMergePolicy(mergePolicy);
            try (IndexWriter writer = new IndexWriter(directory, config)) {
                int docs = 0;
                for (int segment : SEGMENTS) {
                    for (int end = docs + segment; docs < end; docs++) {
                        writer.addDocument(document(docs, random, offset));
                    }
                    writer.commit();
                }
                writer.forceMerge(2);
                for (int i = 5; i < docs; i += 37) {
                    writer.deleteDocuments(new Term(BackwardCompatibilityIndex.ID, Integer.toString(i)));
                }
                writer.commit();
            }
            return expectations(directory, random);
        });
    }

    /** Writes a Lucene index into the directory it is given and returns what to store as JSON beside its files. */
    @FunctionalInterface
    interface IndexWriting {
        Object write(Directory directory) throws IOException;
    }

    /**
     * Writes an index with {@code writing} in a temporary directory, then zips its files (not the
     * write lock) and, as {@code jsonEntry}, the JSON of what {@code writing} returned into {@code
     * zip}, which must not exist; the directory is removed whatever happens.
     */
    static void zipIndex(Path zip, String jsonEntry, IndexWriting writing) throws IOException {
        refuseOverwrite(zip);
        Path dir = Files.createTempDirectory("bwc-index");
        try (Directory directory = FSDirectory.open(dir)) {
            Object beside = writing.write(directory);
            try (ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(zip))) {
                for (String file : directory.listAll()) {
                    if (file.equals(IndexWriter.WRITE_LOCK_NAME)) {
                        continue;
                    }
                    out.putNextEntry(new ZipEntry(file));
                    Files.copy(dir.resolve(file), out);
                    out.closeEntry();
                }
                out.putNextEntry(new ZipEntry(jsonEntry));
                out.write(JSON.writeValueAsBytes(beside));
                out.closeEntry();
            }
        } finally {
            try (Stream<Path> files = Files.list(dir)) {
                for (Path file : files.toList()) {
                    Files.delete(file);
                }
            }
            Files.delete(dir);
        }
    }

    /** Document {@code i}: its id, and the same vector in every vector field unless {@code i % 10 == 3}. */
    private static Document document(int i, Random random, float[] offset) {
        Document doc = new Document();
        doc.add(new KeywordField(BackwardCompatibilityIndex.ID, Integer.toString(i), Field.Store.YES));
        if (i % 10 != 3) {
            float[] v = gaussian(random, 1f);
            for (int j = 0; j < DIMENSION; j++) {
                v[j] += offset[j];
            }
            for (String field : List.of(
                    BackwardCompatibilityIndex.FLOATS,
                    BackwardCompatibilityIndex.BITS,
                    BackwardCompatibilityIndex.BITS_UNCENTRED,
                    BackwardCompatibilityIndex.CODES)) {
                doc.add(new KnnFloatVectorField(field, v, VectorSimilarityFunction.COSINE));
            }
        }
        return doc;
    }

    /** Reads the new index back; the rescored top tens must be the exact ones, or the resource is not written. */
    private static IndexExpectations expectations(Directory directory, Random random) throws IOException {
        try (DirectoryReader reader = DirectoryReader.open(directory)) {
            Map<String, float[]> vectors =
                    BackwardCompatibilityIndex.vectors(reader, BackwardCompatibilityIndex.FLOATS);
            List<float[]> queries = new ArrayList<>();
            for (int q = 0; q < QUERIES; q++) {
                queries.add(gaussian(random, 1f));
            }
            Map<String, List<List<ScoredId>>> nearest = new LinkedHashMap<>();
            for (String field : BackwardCompatibilityIndex.EXACT_FIELDS) {
                List<List<ScoredId>> answers = new ArrayList<>();
                for (float[] query : queries) {
                    List<ScoredId> answer = BackwardCompatibilityIndex.nearest(reader, field, query);
                    List<String> exact = exactTop(vectors, query);
                    if (answer.stream().map(ScoredId::id).toList().equals(exact) == false) {
                        throw new IllegalStateException(
                                field + ": search found " + answer + ", exact top ten " + exact);
                    }
                    answers.add(answer);
                }
                nearest.put(field, answers);
            }
            return new IndexExpectations(
                    Version.LATEST.toString(),
                    BinaryFlatVectorsFormat.VERSION_CURRENT,
                    vectors,
                    BackwardCompatibilityIndex.vectors(reader, BackwardCompatibilityIndex.CODES),
                    queries,
                    nearest);
        }
    }

    private static List<String> exactTop(Map<String, float[]> vectors, float[] query) {
        return vectors.entrySet().stream()
                .sorted(Comparator.comparingDouble((Map.Entry<String, float[]> e) ->
                        -VectorSimilarityFunction.COSINE.compare(query, e.getValue())))
                .limit(BackwardCompatibilityIndex.K)
                .map(Map.Entry::getKey)
                .toList();
    }

    private static void writeModel(Path file, Path expectations) throws IOException {
        refuseOverwrite(file);
        refuseOverwrite(expectations);
        ModelArtifact artifact = ModelFileTests.sampleModel(20, 32, 48, 16);
        ModelFile.write(artifact, file);
        Random random = new Random(21);
        List<float[]> inputs = new ArrayList<>();
        for (int i = 0; i < MODEL_INPUTS; i++) {
            float[] v = new float[artifact.metadata().inputDim()];
            for (int j = 0; j < v.length; j++) {
                v[j] = (float) random.nextGaussian();
            }
            inputs.add(v);
        }
        // read back, as the test will: the expectations are what the reader finds in the file
        ModelArtifact read = ModelFile.read(file);
        float[][] outputs =
                CpuEncoders.forServing(read, read.metadata().maxOutputDim()).encode(inputs.toArray(float[][]::new));
        JSON.writerWithDefaultPrettyPrinter()
                .writeValue(
                        expectations.toFile(),
                        new ModelExpectations(
                                ModelFile.FORMAT_VERSION,
                                read.metadata().method(),
                                read.metadata().inputDim(),
                                read.metadata().outputDims(),
                                inputs,
                                Arrays.asList(outputs)));
    }

    private static float[] gaussian(Random random, float sigma) {
        float[] v = new float[DIMENSION];
        for (int j = 0; j < DIMENSION; j++) {
            v[j] = (float) random.nextGaussian() * sigma;
        }
        return v;
    }

    /** Unzips an index resource into {@code target}, all but its expectations; returns them. */
    static IndexExpectations unzipIndex(InputStream zip, Path target) throws IOException {
        IndexExpectations expected = null;
        try (ZipInputStream in = new ZipInputStream(zip)) {
            for (ZipEntry entry; (entry = in.getNextEntry()) != null; ) {
                if (entry.getName().equals(IndexBackwardCompatibilityTests.EXPECTATIONS)) {
                    expected = JSON.readValue(in.readAllBytes(), IndexExpectations.class);
                } else {
                    try (OutputStream out = Files.newOutputStream(target.resolve(entry.getName()))) {
                        in.transferTo(out);
                    }
                }
            }
        }
        if (expected == null) {
            throw new IOException("the resource has no " + IndexBackwardCompatibilityTests.EXPECTATIONS);
        }
        return expected;
    }

    static ModelExpectations readModelExpectations(InputStream json) throws IOException {
        return JSON.readValue(json, ModelExpectations.class);
    }
}
