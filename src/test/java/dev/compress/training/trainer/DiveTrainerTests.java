package dev.compress.training.trainer;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import dev.compress.training.TestData;
import dev.compress.training.data.EmbeddedDataset;
import dev.compress.training.sampling.QuerySplit;
import dev.compress.training.sampling.TrainingData;
import java.io.IOException;
import org.junit.Test;

public class DiveTrainerTests {

    @Test
    public void validationNdcgImprovesOverStartingPoint() throws IOException {
        EmbeddedDataset ds = TestData.dataset("scifact", "bge-small-en-v1.5");
        QuerySplit split =
                QuerySplit.ofDatasetSplits(ds.beir().qrels("train"), ds.beir().qrels("test"), 0.1, 0);
        TrainingData data = TrainingData.build(ds, ds.beir().qrels("train"), split, 50);
        DiveConfig config =
                DiveConfig.paper(32).withEpochs(15).withLearningRate(1e-3).withDevice("cpu");
        TrainedModel model = new DiveTrainer(config).train(data, (stats, total) -> System.out.println(stats));
        TrainingReport r = model.report();
        Selection s = r.selection();
        assertTrue(
                "best validation nDCG@10 " + s.bestNdcg() + " should beat the start (PCA) " + s.startNdcg(),
                s.bestNdcg() > s.startNdcg() + 0.03);
        assertTrue(s.bestEpoch() > 0);
        assertEquals(32, model.artifact().metadata().maxOutputDim());
        for (EpochStats e : r.epochs().subList(1, r.epochs().size())) {
            assertTrue(e.activeTripletRatio() >= 0 && e.activeTripletRatio() <= 1);
        }
    }
}
