package dev.compress.demo;

import dev.compress.demo.embed.BeirTextEmbedder;
import dev.compress.demo.embed.SentenceModel;
import dev.compress.training.data.BeirFiles;
import dev.compress.training.data.EmbeddedDataset;
import dev.compress.training.data.VectorFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the main job's vectors come from: the precomputed files under {@code <data>/embeddings} when
 * they are there, otherwise vectors embedded from the BEIR text (cached under {@code target/embeddings}).
 */
public interface VectorSource {

    /** The data set's corpus and query vectors joined to its BEIR files. */
    EmbeddedDataset load(DemoOptions options) throws IOException;

    /** One line for the progress display. */
    String describe(DemoOptions options);

    /** Precomputed vectors when {@code <data>/embeddings/<dataset>/<model>} exists, else the text embedder. */
    static VectorSource choose(DemoOptions options) {
        Path precomputed = Precomputed.directory(options);
        return Files.isDirectory(precomputed) ? new Precomputed() : new FromText();
    }

    /** {@code <data>/embeddings/<dataset>/<model>/{corpus,queries}.{f32,ids}}. */
    final class Precomputed implements VectorSource {

        static Path directory(DemoOptions options) {
            return options.dataDir()
                    .resolve("embeddings")
                    .resolve(options.dataset().name())
                    .resolve(options.model());
        }

        @Override
        public EmbeddedDataset load(DemoOptions options) throws IOException {
            return EmbeddedDataset.load(options.dataDir(), options.dataset().name(), options.model());
        }

        @Override
        public String describe(DemoOptions options) {
            return "precomputed vectors from " + directory(options);
        }
    }

    /**
     * Embeds the BEIR text with {@link BeirTextEmbedder} (onnxruntime, the shared data's recipe) into
     * {@code target/embeddings}, once: later runs find the cached files.
     */
    final class FromText implements VectorSource {

        static Path cache(DemoOptions options) {
            return options.build().resolve("embeddings");
        }

        @Override
        public EmbeddedDataset load(DemoOptions options) throws IOException {
            String dataset = options.dataset().name();
            Path dir = BeirTextEmbedder.ensureEmbeddings(
                    dataset,
                    SentenceModel.forName(options.model()),
                    options.dataDir().resolve("beir"),
                    cache(options));
            return new EmbeddedDataset(
                    dataset,
                    options.model(),
                    BeirFiles.of(options.dataDir(), dataset),
                    VectorFiles.read(dir, "corpus"),
                    VectorFiles.read(dir, "queries"));
        }

        @Override
        public String describe(DemoOptions options) {
            return "no precomputed vectors at " + Precomputed.directory(options) + ": embedding the BEIR text into "
                    + cache(options) + " (once; minutes per data set on two cores)";
        }
    }
}
