package dev.compress.training.trainer;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import dev.compress.training.TestData;
import dev.compress.training.data.EmbeddedDataset;
import dev.compress.training.data.EvalSet;
import dev.compress.training.eval.Encoding;
import dev.compress.training.eval.ModelEvaluator;
import dev.compress.training.eval.RetrievalEvaluator;
import dev.compress.training.inference.JavaEncoder;
import dev.compress.training.model.ModelArtifact;
import dev.compress.training.model.ModelFile;
import dev.compress.training.sampling.QuerySplit;
import dev.compress.training.sampling.TrainingData;
import java.io.IOException;
import java.util.List;
import org.junit.Test;

/** PCA and truncation through the Trainer interface reproduce the design's reference figures (scifact test, bge-small, 64-d). */
public class BaselineTrainersTests {

    private static double ndcgAt64(Trainer trainer) throws IOException {
        EmbeddedDataset ds = TestData.dataset("scifact", "bge-small-en-v1.5");
        QuerySplit split =
                QuerySplit.ofDatasetSplits(ds.beir().qrels("train"), ds.beir().qrels("test"), 0.1, 0);
        TrainingData data = TrainingData.build(ds, ds.beir().qrels("train"), split, 1);
        ModelArtifact model = ModelFile.fromBytes(
                ModelFile.toBytes(trainer.train(data, TrainingListener.NONE).artifact()));
        EvalSet test = ds.evalSet("test");
        try (JavaEncoder enc = new JavaEncoder(model, 64)) {
            List<ModelEvaluator.Row> rows =
                    new ModelEvaluator(RetrievalEvaluator.standard()).evaluate(trainer.method(), enc, test);
            assertEquals(Encoding.FLOAT, rows.get(0).encoding());
            return rows.get(0).scores().ndcg();
        }
    }

    @Test
    public void truncationMatchesReference() throws IOException {
        assertEquals(0.5069, ndcgAt64(new TruncationTrainer(List.of(32, 64))), 0.001);
    }

    @Test
    public void uncentredPcaMatchesReference() throws IOException {
        assertEquals(0.6234, ndcgAt64(new PcaTrainer(List.of(64, 128), false)), 0.001);
    }

    @Test
    public void intrinsicDimension() {
        assertEquals(2, PcaTrainer.intrinsicDimension(new double[] {5, 4.6, 0.3, 0.1}, 0.95));
        assertEquals(1, PcaTrainer.intrinsicDimension(new double[] {1, 0, 0}, 0.95));
    }

    @Test
    public void eigenDecompositionOfSmallMatrix() {
        SymmetricEigen e = SymmetricEigen.of(new double[][] {{2, 1}, {1, 2}});
        assertEquals(3, e.values[0], 1e-12);
        assertEquals(1, e.values[1], 1e-12);
        assertTrue(Math.abs(Math.abs(e.vectors[0][0]) - Math.sqrt(0.5)) < 1e-12);
        assertEquals(e.vectors[0][0], e.vectors[0][1], 1e-12);
    }
}
