package dev.compress.training;

import static org.junit.Assume.assumeTrue;

import dev.compress.training.data.DataDirectory;
import dev.compress.training.data.EmbeddedDataset;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Access to the shared BEIR data for tests. Under CI (env {@code CI} set) missing data is an error;
 * elsewhere the test is skipped with a note on how to provide the data.
 */
public final class TestData {

    private static final ConcurrentHashMap<String, EmbeddedDataset> CACHE = new ConcurrentHashMap<>();

    private TestData() {}

    public static Path dataDir() {
        Path dir = DataDirectory.resolve();
        boolean present = Files.isDirectory(dir.resolve("beir")) && Files.isDirectory(dir.resolve("embeddings"));
        String how = "BEIR data and embeddings not found under " + dir.toAbsolutePath()
                + "; set " + DataDirectory.ENV_VAR + " (or -D" + DataDirectory.SYSTEM_PROPERTY
                + ") to a folder holding beir/ and embeddings/ as in ../shared/data";
        if (!present && System.getenv("CI") != null) {
            throw new IllegalStateException(how);
        }
        assumeTrue(how, present);
        return dir;
    }

    public static EmbeddedDataset dataset(String name, String model) {
        Path dir = dataDir();
        return CACHE.computeIfAbsent(name + "/" + model, key -> {
            try {
                return EmbeddedDataset.load(dir, name, model);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }
}
