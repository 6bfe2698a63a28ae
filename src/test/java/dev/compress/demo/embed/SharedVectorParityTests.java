package dev.compress.demo.embed;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import dev.compress.training.TestData;
import dev.compress.training.data.VectorFiles;
import dev.compress.training.data.VectorSet;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.IntStream;
import org.junit.Test;

/**
 * The encoder reproduces the shared vectors: a sample of scifact documents (the longest ones,
 * which are truncated, and an even spread) and queries, embedded in padded batches, each has
 * cosine >= 0.9999 with its row in {@code ../shared/data/embeddings/scifact/<model>}.
 */
public class SharedVectorParityTests {

    private static final double MIN_COSINE = 0.9999;
    private static final int LONGEST_DOCS = 6;
    private static final int SPREAD_DOCS = 26;
    private static final int SPREAD_QUERIES = 32;
    private static final int BATCH = 16;

    @Test
    public void bgeSmallMatchesSharedVectors() throws IOException {
        assertParity(SentenceModel.BGE_SMALL_EN_V15);
    }

    @Test
    public void miniLmMatchesSharedVectors() throws IOException {
        assertParity(SentenceModel.ALL_MINILM_L6_V2);
    }

    private static void assertParity(SentenceModel model) throws IOException {
        Path data = TestData.dataDir();
        Path shared = data.resolve("embeddings").resolve("scifact").resolve(model.directoryName());
        Path beir = data.resolve("beir").resolve("scifact");
        BeirTexts corpus = BeirTexts.corpus(beir);
        BeirTexts queries = BeirTexts.queries(beir);
        VectorSet sharedCorpus = VectorFiles.read(shared, "corpus");
        VectorSet sharedQueries = VectorFiles.read(shared, "queries");
        assertEquals(corpus.ids(), sharedCorpus.ids());
        assertEquals(queries.ids(), sharedQueries.ids());

        List<Integer> docRows = new ArrayList<>();
        IntStream.range(0, corpus.size())
                .boxed()
                .sorted(Comparator.comparingInt(
                                (Integer i) -> corpus.texts().get(i).length())
                        .reversed())
                .limit(LONGEST_DOCS)
                .forEach(docRows::add);
        spread(corpus.size(), SPREAD_DOCS).forEach(docRows::add);
        List<Integer> queryRows = spread(queries.size(), SPREAD_QUERIES);

        try (OnnxTextEncoder encoder =
                new OnnxTextEncoder(model, Runtime.getRuntime().availableProcessors())) {
            assertEquals(
                    "the longest document is cut to the model's limit",
                    model.maxTokens(),
                    encoder.tokenIds(corpus.texts().get(docRows.get(0))).length);
            double worstDoc = worstCosine(model, "document", docRows, corpus, sharedCorpus, false, encoder);
            double worstQuery = worstCosine(model, "query", queryRows, queries, sharedQueries, true, encoder);
            System.out.printf(
                    Locale.ROOT,
                    "%s: largest 1 - cosine to the shared vectors: documents %.2e, queries %.2e%n",
                    model.directoryName(),
                    1 - worstDoc,
                    1 - worstQuery);
        }
    }

    private static double worstCosine(
            SentenceModel model,
            String kind,
            List<Integer> rows,
            BeirTexts texts,
            VectorSet shared,
            boolean queries,
            OnnxTextEncoder encoder)
            throws IOException {
        double worst = 1;
        for (int start = 0; start < rows.size(); start += BATCH) {
            List<Integer> batchRows = rows.subList(start, Math.min(rows.size(), start + BATCH));
            List<String> batch = batchRows.stream().map(texts.texts()::get).toList();
            float[][] vectors = queries ? encoder.embedQueries(batch) : encoder.embedDocuments(batch);
            for (int k = 0; k < vectors.length; k++) {
                int row = batchRows.get(k);
                double cosine = cosine(vectors[k], shared.row(row));
                assertTrue(
                        String.format(
                                Locale.ROOT,
                                "%s %s %s: cosine %.7f < %s",
                                model.directoryName(),
                                kind,
                                texts.ids().get(row),
                                cosine,
                                MIN_COSINE),
                        cosine >= MIN_COSINE);
                worst = Math.min(worst, cosine);
            }
        }
        return worst;
    }

    private static List<Integer> spread(int size, int count) {
        return IntStream.range(0, count)
                .map(i -> (int) ((long) i * size / count))
                .boxed()
                .toList();
    }

    private static double cosine(float[] a, float[] b) {
        double dot = 0, na = 0, nb = 0;
        for (int i = 0; i < a.length; i++) {
            dot += (double) a[i] * b[i];
            na += (double) a[i] * a[i];
            nb += (double) b[i] * b[i];
        }
        return dot / Math.sqrt(na * nb);
    }
}
