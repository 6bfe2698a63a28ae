package dev.compress.demo;

import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/** Which vectors the main job takes; the text embedder's cache is {@code BeirTextEmbedderTests}'. */
public class VectorSourceTests {

    @Rule
    public TemporaryFolder temp = new TemporaryFolder();

    private VectorSource chosen(Path data) {
        return VectorSource.choose(DemoOptions.parse(List.of("--data", data.toString()), data.resolve("build")));
    }

    @Test
    public void sharedVectorsWinWhenPresent() throws IOException {
        Path data = temp.getRoot().toPath();
        Files.createDirectories(data.resolve("embeddings/scifact/bge-small-en-v1.5"));
        assertTrue(chosen(data) instanceof VectorSource.Precomputed);
    }

    @Test
    public void otherwiseTheBeirTextIsEmbedded() {
        assertTrue(chosen(temp.getRoot().toPath()) instanceof VectorSource.FromText);
    }
}
