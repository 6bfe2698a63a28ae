package dev.compress.demo.embed;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the main job finds a data set's vectors: the shared {@code <dataDir>/embeddings/<dataset>/<model>}
 * when it is there, else the cache that {@link BeirTextEmbedder} fills from {@code <dataDir>/beir}.
 */
public final class EmbeddingsSource {

    private EmbeddingsSource() {}

    /** The folder holding {@code {corpus,queries}.{f32,ids}} for the data set and model. */
    public static Path resolve(Path dataDir, String dataset, SentenceModel model, Path cacheDir) throws IOException {
        Path shared = dataDir.resolve("embeddings").resolve(dataset).resolve(model.directoryName());
        if (Files.isRegularFile(shared.resolve("corpus.f32")) && Files.isRegularFile(shared.resolve("queries.f32"))) {
            return shared;
        }
        System.err.println("no shared vectors at " + shared + "; embedding " + dataset + " with "
                + model.directoryName() + " into " + cacheDir);
        return BeirTextEmbedder.ensureEmbeddings(dataset, model, dataDir.resolve("beir"), cacheDir);
    }
}
