package dev.compress.training.data;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The judgments of one data set in the BEIR layout, {@code qrels/<split>.tsv}. Training on
 * precomputed embeddings needs no texts; where texts are embedded, {@code BeirTexts} reads them.
 */
public final class BeirFiles {

    private final Path dir;

    public BeirFiles(Path datasetDir) {
        this.dir = datasetDir;
    }

    /** {@code <dataDir>/beir/<dataset>}. */
    public static BeirFiles of(Path dataDir, String dataset) {
        return new BeirFiles(dataDir.resolve("beir").resolve(dataset));
    }

    public Qrels qrels(String split) throws IOException {
        Path file = dir.resolve("qrels").resolve(split + ".tsv");
        if (!Files.exists(file)) {
            throw new IOException("no qrels split '" + split + "': " + file + " does not exist");
        }
        return Qrels.readTsv(file);
    }
}
