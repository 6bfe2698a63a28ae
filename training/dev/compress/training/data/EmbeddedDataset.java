package dev.compress.training.data;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One BEIR data set embedded by one model: corpus and query vectors joined to the data set's
 * judgments, so a query id or doc id maps to its vector row.
 */
public record EmbeddedDataset(String name, String model, BeirFiles beir, VectorRows corpus, VectorSet queries) {

    /** Where the corpus vectors live; queries are always read onto the heap. */
    public enum CorpusStorage {
        HEAP,
        MAPPED,
        /**
         * On the heap when the file takes at most a quarter of the maximum heap, else mapped. On the heap,
         * encoded copies of the corpus (validation, evaluation) are computed once and random row reads are
         * plain array copies; a quarter leaves room for such a copy and the training state besides.
         */
        BY_SIZE
    }

    /** Loads {@code <dataDir>/embeddings/<dataset>/<model>/{corpus,queries}.{f32,ids}} and the BEIR files. */
    public static EmbeddedDataset load(Path dataDir, String dataset, String model) throws IOException {
        return load(dataDir, dataset, model, CorpusStorage.BY_SIZE);
    }

    public static EmbeddedDataset load(Path dataDir, String dataset, String model, CorpusStorage storage)
            throws IOException {
        Path embeddings = dataDir.resolve("embeddings").resolve(dataset).resolve(model);
        if (!Files.isDirectory(embeddings)) {
            throw new IOException(
                    "no embeddings for data set '" + dataset + "' and model '" + model + "' under " + embeddings);
        }
        boolean mapped = switch (storage) {
            case HEAP -> false;
            case MAPPED -> true;
            case BY_SIZE ->
                Files.size(embeddings.resolve("corpus.f32"))
                        > Runtime.getRuntime().maxMemory() / 4;
        };
        VectorRows corpus = mapped ? VectorFiles.map(embeddings, "corpus") : VectorFiles.read(embeddings, "corpus");
        VectorSet queries = VectorFiles.read(embeddings, "queries");
        if (corpus.dim() != queries.dim()) {
            throw new IOException("corpus dim " + corpus.dim() + " differs from query dim " + queries.dim());
        }
        return new EmbeddedDataset(dataset, model, BeirFiles.of(dataDir, dataset), corpus, queries);
    }

    public int dim() {
        return corpus.dim();
    }

    /**
     * The evaluation set of one qrels split: the judged queries (those with a vector and at least one
     * rating > 0), the whole corpus and the split's judgments.
     */
    public EvalSet evalSet(String split) throws IOException {
        return evalSet(beir.qrels(split));
    }

    public EvalSet evalSet(Qrels qrels) {
        List<Integer> rows = new ArrayList<>();
        for (String q : qrels.queryIds()) {
            int row = queries.rowOf(q);
            if (row < 0) {
                throw new IllegalArgumentException("judged query '" + q + "' has no vector in " + name + "/" + model);
            }
            if (!qrels.relevant(q).isEmpty()) {
                rows.add(row);
            }
        }
        return new EvalSet(
                queries.select(rows.stream().mapToInt(Integer::intValue).toArray()), corpus, qrels);
    }
}
