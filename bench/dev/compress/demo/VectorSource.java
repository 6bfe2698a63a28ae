package dev.compress.demo;

import dev.compress.training.data.EmbeddedDataset;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the main job's vectors come from: the precomputed files under {@code <data>/embeddings} when
 * they are there, otherwise vectors embedded from the BEIR text.
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
            return options.dataDir().resolve("embeddings").resolve(options.dataset().name()).resolve(options.model());
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
     * Embeds the BEIR text. The embedder (onnxruntime, bge-small) is another component that this build
     * does not contain yet, so this source fails and says what to provide instead.
     */
    final class FromText implements VectorSource {

        @Override
        public EmbeddedDataset load(DemoOptions options) throws IOException {
            throw new IOException("no precomputed vectors at " + Precomputed.directory(options)
                + ", and this build has no text embedder to compute them from " + options.dataDir().resolve("beir").resolve(options.dataset().name())
                + ": put the embeddings there (see ../shared/data/embeddings/README.md for the layout) or pass --data DIR");
        }

        @Override
        public String describe(DemoOptions options) {
            return "text embedder (not in this build)";
        }
    }
}
