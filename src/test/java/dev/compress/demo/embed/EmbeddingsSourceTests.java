package dev.compress.demo.embed;

import static org.junit.Assert.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

public class EmbeddingsSourceTests {

    private static final SentenceModel MODEL = SentenceModel.BGE_SMALL_EN_V15;

    @Rule
    public TemporaryFolder temp = new TemporaryFolder();

    @Test
    public void sharedVectorsWinWhenPresent() throws IOException {
        Path data = temp.getRoot().toPath();
        Path shared = Files.createDirectories(data.resolve("embeddings/tiny/bge-small-en-v1.5"));
        Files.write(shared.resolve("corpus.f32"), new byte[0]);
        Files.write(shared.resolve("queries.f32"), new byte[0]);
        assertEquals(shared, EmbeddingsSource.resolve(data, "tiny", MODEL, data.resolve("cache")));
    }

    @Test
    public void otherwiseTheCacheMadeFromTheBeirText() throws IOException {
        Path data = temp.getRoot().toPath();
        Path beir = Files.createDirectories(data.resolve("beir/tiny"));
        Files.writeString(beir.resolve("corpus.jsonl"), "{\"_id\": \"d\", \"title\": \"\", \"text\": \"x\"}\n");
        Files.writeString(beir.resolve("queries.jsonl"), "{\"_id\": \"q\", \"text\": \"y\"}\n");
        // a complete cache, so no model needs to run: the rows are the cache's own
        Path cached = data.resolve("cache/tiny/bge-small-en-v1.5");
        for (String[] file : new String[][] {{"corpus", "d"}, {"queries", "q"}}) {
            try (ResumableVectorFile out =
                    ResumableVectorFile.open(cached, file[0], List.of(file[1]), SentenceModel.DIMENSION)) {
                out.append(new float[][] {new float[SentenceModel.DIMENSION]});
                out.complete();
            }
        }
        Files.writeString(cached.resolve("meta.json"), "{}");
        assertEquals(cached, EmbeddingsSource.resolve(data, "tiny", MODEL, data.resolve("cache")));
        assertEquals("{}", Files.readString(cached.resolve("meta.json")));
    }
}
