package dev.compress.bench;

import dev.compress.harness.BenchData;
import dev.compress.training.data.VectorSet;
import dev.compress.training.trainer.PcaTrainer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The corpus PCA every training job fits before it trains (an adapter's start, the PCA baseline and
 * the intrinsic dimension of its report): mean, covariance and eigendecomposition of the corpus
 * vectors, on one thread, at each dimension of {@code -Dbench.pca.dims} (384, 1,024 and 4,096: the
 * range of embeddings the plugin serves) for {@code -Dbench.pca.docs} synthetic vectors (quick
 * 20,000, full 100,000; {@link BenchData#synthetic}). The covariance grows with documents times
 * dimensions squared, the eigendecomposition with dimensions cubed.
 */
final class PcaSection implements BenchSection {

    @Override
    public String name() {
        return "pca";
    }

    @Override
    public List<ResultTable> run(BenchMode mode) {
        int docs = Integer.getInteger("bench.pca.docs", mode.full() ? 100_000 : 20_000);
        ResultTable table = new ResultTable(
                "Corpus PCA of synthetic vectors, one thread", List.of("dims", "docs", "fit_s", "intrinsic_dim_95"));
        // the first fit runs interpreted until the JIT has compiled the loops; a small one takes that cost
        PcaTrainer.intrinsicDimension(rows(BenchData.synthetic(2_000, 0, 128, 1)), 0.95);
        for (String dims : System.getProperty("bench.pca.dims", "384,1024,4096").split(",")) {
            int d = Integer.parseInt(dims.trim());
            VectorSet corpus = rows(BenchData.synthetic(docs, 0, d, 42));
            long start = System.nanoTime();
            int intrinsic = PcaTrainer.intrinsicDimension(corpus, 0.95);
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("dims", d);
            row.put("docs", docs);
            row.put("fit_s", (System.nanoTime() - start) / 1e9);
            row.put("intrinsic_dim_95", intrinsic);
            table.add(row);
        }
        table.note("fit_s: the corpus PCA a training job fits (PcaTrainer.intrinsicDimension: mean, covariance,"
                + " eigendecomposition), wall-clock seconds of one fit; up to 1,024 dimensions the"
                + " eigendecomposition is Jacobi's, above it Householder reduction and QL. intrinsic_dim_95:"
                + " components explaining 95% of the variance (the synthetic vectors have 32 latent"
                + " dimensions plus noise in every dimension).");
        return List.of(table);
    }

    private static VectorSet rows(BenchData data) {
        return VectorSet.ofRows(data.corpusIds(), data.corpus());
    }
}
