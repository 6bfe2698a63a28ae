package dev.compress.demo.embed;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;

import dev.compress.training.data.VectorFiles;
import dev.compress.training.data.VectorSet;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/** The cache on a tiny BEIR data set made here, with the real MiniLM model (the smaller one). */
public class BeirTextEmbedderTests {

    private static final SentenceModel MODEL = SentenceModel.ALL_MINILM_L6_V2;
    private static final String CORPUS = """
      {"_id": "d1", "title": "Vitamin D", "text": "Vitamin D deficiency is common in winter.", "metadata": {}}
      {"_id": "d2", "title": "", "text": "Statins lower LDL cholesterol.", "metadata": {}}
      {"_id": "d3", "title": "Sleep", "text": "Adults need seven hours of sleep.", "metadata": {}}
      """;
    private static final String QUERIES = """
      {"_id": "q1", "text": "does vitamin d drop in winter", "metadata": {}}
      {"_id": "q2", "text": "how much sleep do adults need", "metadata": {}}
      """;

    @Rule
    public TemporaryFolder temp = new TemporaryFolder();

    @Test
    public void embedsOnceThenServesTheCacheAndRedoesOnlyWhatChanged() throws IOException {
        Path beir = beirWith(CORPUS);
        Path cache = temp.getRoot().toPath().resolve("cache");
        BeirTextEmbedder embedder = new BeirTextEmbedder(MODEL, 1, 2);

        Path out = embedder.embed("tiny", beir, cache);
        assertEquals(cache.resolve("tiny").resolve("all-MiniLM-L6-v2"), out);
        VectorSet corpus = VectorFiles.read(out, "corpus");
        VectorSet queries = VectorFiles.read(out, "queries");
        assertEquals(List.of("d1", "d2", "d3"), corpus.ids());
        assertEquals(List.of("q1", "q2"), queries.ids());
        try (OnnxTextEncoder encoder = new OnnxTextEncoder(MODEL, 1)) {
            float[] alone = encoder.embedDocuments(List.of("Sleep Adults need seven hours of sleep."))[0];
            assertArrayEquals(alone, corpus.row(2), 1e-5f);
            assertArrayEquals(encoder.embedQueries(List.of("does vitamin d drop in winter"))[0], queries.row(0), 1e-5f);
        }
        assertTrue(Files.exists(out.resolve("meta.json")));

        FileTime old = FileTime.fromMillis(0);
        for (String file : List.of("corpus.f32", "queries.f32", "meta.json")) {
            Files.setLastModifiedTime(out.resolve(file), old);
        }
        assertEquals(out, embedder.embed("tiny", beir, cache));
        assertEquals("a complete cache is not rewritten", old, Files.getLastModifiedTime(out.resolve("corpus.f32")));
        assertEquals(old, Files.getLastModifiedTime(out.resolve("meta.json")));

        Files.writeString(
                beir.resolve("tiny").resolve("corpus.jsonl"),
                CORPUS + "{\"_id\": \"d4\", \"title\": \"\", \"text\": \"Coffee and sleep.\"}\n");
        embedder.embed("tiny", beir, cache);
        assertEquals(
                List.of("d1", "d2", "d3", "d4"), VectorFiles.read(out, "corpus").ids());
        assertNotEquals(old, Files.getLastModifiedTime(out.resolve("corpus.f32")));
        assertEquals("unchanged queries are kept", old, Files.getLastModifiedTime(out.resolve("queries.f32")));
    }

    @Test
    public void resumesAnInterruptedCorpusWithoutRecomputingItsRows() throws IOException {
        Path beir = beirWith(CORPUS);
        Path out = temp.getRoot().toPath().resolve("cache").resolve("tiny").resolve("all-MiniLM-L6-v2");
        float[] marker = new float[SentenceModel.DIMENSION];
        marker[0] = 1;
        try (ResumableVectorFile partial =
                ResumableVectorFile.open(out, "corpus", List.of("d1", "d2", "d3"), SentenceModel.DIMENSION)) {
            partial.append(new float[][] {marker});
        }
        new BeirTextEmbedder(MODEL, 1, 2)
                .embed("tiny", beir, temp.getRoot().toPath().resolve("cache"));
        VectorSet corpus = VectorFiles.read(out, "corpus");
        assertArrayEquals("row 0 came from the interrupted run", marker, corpus.row(0), 0f);
        assertNotEquals(0f, corpus.row(1)[1], 0f);
    }

    private Path beirWith(String corpus) throws IOException {
        Path beir = temp.getRoot().toPath().resolve("beir");
        Path dataset = Files.createDirectories(beir.resolve("tiny"));
        Files.writeString(dataset.resolve("corpus.jsonl"), corpus);
        Files.writeString(dataset.resolve("queries.jsonl"), QUERIES);
        return beir;
    }
}
