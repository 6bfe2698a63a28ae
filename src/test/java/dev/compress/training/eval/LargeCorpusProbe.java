package dev.compress.training.eval;

import dev.compress.training.data.EmbeddedDataset;
import dev.compress.training.data.EvalSet;
import dev.compress.training.data.MappedVectors;
import dev.compress.training.data.VectorFiles;
import dev.compress.training.data.VectorRows;
import dev.compress.training.data.VectorSet;
import dev.compress.training.inference.CpuEncoders;
import dev.compress.training.inference.Encoder;
import dev.compress.training.model.LayerSpec;
import dev.compress.training.model.ModelArtifact;
import dev.compress.training.model.ModelMetadata;
import dev.compress.training.model.Tensor;
import dev.compress.training.sampling.QuerySplit;
import dev.compress.training.sampling.TrainingData;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * Run in a child JVM with a heap smaller than the corpus file ({@link LargeCorpusTests}): mines hard
 * negatives and evaluates the frozen vectors and a 64-d projection on a {@link PlantedCorpus} in a
 * directory, printing the results and the heap it used as {@code key=value} lines.
 */
public final class LargeCorpusProbe {

    private LargeCorpusProbe() {}

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        MappedVectors corpus = VectorFiles.map(dir, "corpus");
        VectorSet queries = VectorFiles.read(dir, "queries");
        PlantedCorpus planted = new PlantedCorpus(corpus.size());
        EmbeddedDataset ds = new EmbeddedDataset("planted", "synthetic", null, corpus, queries);
        List<String> ids = queries.ids();
        QuerySplit split = new QuerySplit(
                ids.subList(0, PlantedCorpus.QUERIES - 1),
                ids.subList(PlantedCorpus.QUERIES - 1, ids.size()),
                List.of());
        TrainingData data = TrainingData.build(ds, planted.qrels(), split, 5);
        for (int q = 0; q < data.queries().size(); q++) {
            System.out.println("negatives." + data.queries().id(q) + "=" + Arrays.toString(data.hardNegatives()[q]));
        }
        EvalSet set = ds.evalSet(planted.qrels());
        ModelEvaluator evaluator = new ModelEvaluator(RetrievalEvaluator.standard());
        print(evaluator.evaluateFrozen(set));
        try (Encoder encoder = CpuEncoders.forServing(firstDims(64), 64)) {
            VectorRows encoded = ModelEvaluator.encode(encoder, set.corpus());
            System.out.println("encodedCorpusOnHeap=" + (encoded instanceof VectorSet));
            print(evaluator.evaluate("first64", encoder, set));
        }
        long peak = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                peak += pool.getPeakUsage().getUsed();
            }
        }
        System.out.println("maxHeap=" + Runtime.getRuntime().maxMemory());
        System.out.println("peakHeap=" + peak);
    }

    private static void print(List<ModelEvaluator.Row> rows) {
        for (ModelEvaluator.Row r : rows) {
            System.out.println("ndcg." + r.method() + "." + r.encoding().label() + "="
                    + Arrays.stream(r.scores().perQueryNdcg())
                            .mapToObj(Double::toString)
                            .collect(Collectors.joining(",")));
        }
    }

    /** A linear layer that keeps the first {@code k} dimensions as they are (no normalisation). */
    private static ModelArtifact firstDims(int k) {
        int d = PlantedCorpus.DIM;
        float[] w = new float[k * d];
        IntStream.range(0, k).forEach(o -> w[o * d + o] = 1f);
        ModelMetadata metadata = new ModelMetadata(
                "first64",
                d,
                List.of(k),
                ModelMetadata.OUTPUT_EMBEDDING,
                ModelMetadata.NORM_NONE,
                1,
                List.of(LayerSpec.linear("proj", d, k)),
                Map.of(),
                Map.of(),
                Map.of());
        return new ModelArtifact(
                metadata,
                Map.of(
                        "proj.weight",
                        new Tensor("proj.weight", new int[] {k, d}, w),
                        "proj.bias",
                        new Tensor("proj.bias", new int[] {k}, new float[k])));
    }
}
