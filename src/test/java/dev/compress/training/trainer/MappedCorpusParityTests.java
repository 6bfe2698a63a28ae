package dev.compress.training.trainer;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import dev.compress.training.TestData;
import dev.compress.training.data.EmbeddedDataset;
import dev.compress.training.data.EvalSet;
import dev.compress.training.data.MappedVectors;
import dev.compress.training.data.VectorSet;
import dev.compress.training.eval.ModelEvaluator;
import dev.compress.training.eval.RetrievalEvaluator;
import dev.compress.training.inference.JavaEncoder;
import dev.compress.training.model.ModelArtifact;
import dev.compress.training.sampling.QuerySplit;
import dev.compress.training.sampling.TrainingData;
import java.io.IOException;
import java.util.List;
import org.junit.Test;

/**
 * The scifact corpus memory-mapped gives exactly what it gives on the heap: the mined hard negatives,
 * the frozen evaluation under every encoding (centred bits too), the PCA fit, a trained adaptor's
 * validation figures and weights, and the evaluation of a model (encoded block by block when mapped).
 */
public class MappedCorpusParityTests {

    private static final String DATASET = "scifact";
    private static final String MODEL = "bge-small-en-v1.5";

    private static TrainingData trainingData(EmbeddedDataset ds) throws IOException {
        QuerySplit split =
                QuerySplit.ofDatasetSplits(ds.beir().qrels("train"), ds.beir().qrels("test"), 0.1, 0);
        return TrainingData.build(ds, ds.beir().qrels("train"), split, 30);
    }

    private static void assertSameRows(List<ModelEvaluator.Row> heap, List<ModelEvaluator.Row> mapped) {
        assertEquals(heap.size(), mapped.size());
        for (int i = 0; i < heap.size(); i++) {
            assertEquals(heap.get(i).encoding(), mapped.get(i).encoding());
            assertArrayEquals(
                    heap.get(i).encoding().label(),
                    heap.get(i).scores().perQueryNdcg(),
                    mapped.get(i).scores().perQueryNdcg(),
                    0);
            assertEquals(heap.get(i).scores().recall(), mapped.get(i).scores().recall(), 0);
        }
    }

    private static void assertSameTensors(ModelArtifact heap, ModelArtifact mapped) {
        assertEquals(heap.tensors().keySet(), mapped.tensors().keySet());
        heap.tensors()
                .forEach((name, t) -> assertArrayEquals(
                        name, t.data(), mapped.tensors().get(name).data(), 0f));
    }

    @Test
    public void miningEvaluationAndTrainingMatchTheHeap() throws IOException {
        EmbeddedDataset heap =
                EmbeddedDataset.load(TestData.dataDir(), DATASET, MODEL, EmbeddedDataset.CorpusStorage.HEAP);
        EmbeddedDataset mapped =
                EmbeddedDataset.load(TestData.dataDir(), DATASET, MODEL, EmbeddedDataset.CorpusStorage.MAPPED);
        assertTrue(heap.corpus() instanceof VectorSet);
        assertTrue(mapped.corpus() instanceof MappedVectors);

        TrainingData heapData = trainingData(heap);
        TrainingData mappedData = trainingData(mapped);
        assertArrayEquals(heapData.hardNegatives(), mappedData.hardNegatives());
        assertEquals(heapData.positives(), mappedData.positives());

        ModelEvaluator centred = new ModelEvaluator(new RetrievalEvaluator(10, 100, true));
        EvalSet heapTest = heap.evalSet("test");
        EvalSet mappedTest = mapped.evalSet("test");
        assertSameRows(centred.evaluateFrozen(heapTest), centred.evaluateFrozen(mappedTest));

        TrainingListener quiet = (stats, total) -> {};
        ModelArtifact pcaHeap =
                new PcaTrainer(List.of(64), true).train(heapData, quiet).artifact();
        ModelArtifact pcaMapped =
                new PcaTrainer(List.of(64), true).train(mappedData, quiet).artifact();
        assertSameTensors(pcaHeap, pcaMapped);
        try (JavaEncoder encoder = new JavaEncoder(pcaHeap, 64)) {
            assertSameRows(centred.evaluate("pca", encoder, heapTest), centred.evaluate("pca", encoder, mappedTest));
        }

        AdaptorConfig config = AdaptorConfig.matryoshkaAdaptor(List.of(64, 128))
                .withEpochs(1)
                .withMaxTripletsPerEpoch(256)
                .withDevice("cpu");
        TrainedModel adaptorHeap = new AdaptorTrainer(config).train(heapData, quiet);
        TrainedModel adaptorMapped = new AdaptorTrainer(config).train(mappedData, quiet);
        assertEquals(2, adaptorHeap.report().epochs().size());
        for (int e = 0; e < 2; e++) {
            assertEquals(
                    "epoch " + e,
                    adaptorHeap.report().epochs().get(e).validationNdcg(),
                    adaptorMapped.report().epochs().get(e).validationNdcg());
        }
        assertSameTensors(adaptorHeap.artifact(), adaptorMapped.artifact());
    }
}
