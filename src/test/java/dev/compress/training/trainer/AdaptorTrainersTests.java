package dev.compress.training.trainer;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import dev.compress.training.TestData;
import dev.compress.training.data.EmbeddedDataset;
import dev.compress.training.data.VectorSet;
import dev.compress.training.eval.Encoding;
import dev.compress.training.eval.ModelEvaluator;
import dev.compress.training.eval.RetrievalEvaluator;
import dev.compress.training.inference.JavaEncoder;
import dev.compress.training.model.ModelArtifact;
import dev.compress.training.model.ModelFile;
import dev.compress.training.model.ModelMetadata;
import dev.compress.training.sampling.QuerySplit;
import dev.compress.training.sampling.TrainingData;
import java.util.List;
import java.util.Map;
import org.junit.Test;

/**
 * Short runs (some ten epochs, a few seconds) on scifact: each adaptor-family trainer's best epoch beats its
 * start (PCA at the served dimensions) on validation nDCG@10, and its nested model reads back from its file
 * with the same output. Whether that epoch ships is {@link SelectionTests}' subject.
 */
public class AdaptorTrainersTests {

    private static TrainingData data;

    static synchronized TrainingData data() {
        if (data == null) {
            EmbeddedDataset ds = TestData.dataset("scifact", "bge-small-en-v1.5");
            try {
                QuerySplit split = QuerySplit.ofDatasetSplits(
                        ds.beir().qrels("train"), ds.beir().qrels("test"), 0.1, 0);
                data = TrainingData.build(ds, ds.beir().qrels("train"), split, 30);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
        return data;
    }

    private static void assertImproves(TrainingReport r, double by) {
        Selection s = r.selection();
        assertEquals(r.epochs().get(0).validationNdcg(), s.startNdcg(), 0);
        assertTrue(
                "best validation nDCG@10 " + s.bestNdcg() + " should beat the start " + s.startNdcg() + " by " + by,
                s.bestNdcg() > s.startNdcg() + by);
        assertTrue(s.bestEpoch() > 0);
    }

    /** The model file round-trips and the read-back model encodes exactly as the trained one. */
    private static void assertRoundTrip(ModelArtifact model) {
        byte[] bytes = ModelFile.toBytes(model);
        ModelArtifact back = ModelFile.fromBytes(bytes);
        // metadata equality would compare a Long seed with the Integer JSON gives back; bytes are exact
        org.junit.Assert.assertArrayEquals(bytes, ModelFile.toBytes(back));
        assertEquals(model.metadata().outputDims(), back.metadata().outputDims());
        assertEquals(model.metadata().layers(), back.metadata().layers());
        VectorSet sample = data().validation().queries();
        for (int d : model.metadata().outputDims()) {
            try (JavaEncoder a = new JavaEncoder(model, d);
                    JavaEncoder b = new JavaEncoder(back, d)) {
                float[] x = ModelEvaluator.encode(a, sample).data();
                float[] y = ModelEvaluator.encode(b, sample).data();
                assertEquals(x.length, y.length);
                for (int i = 0; i < x.length; i++) {
                    assertEquals(x[i], y[i], 0f);
                }
            }
        }
    }

    @Test
    public void matryoshkaAdaptorLearnsNestedDims() {
        AdaptorConfig c =
                AdaptorConfig.matryoshkaAdaptor(List.of(64, 128)).withEpochs(10).withDevice("cpu");
        TrainedModel m = new AdaptorTrainer(c).train(data(), (s, t) -> System.out.println(s));
        assertImproves(m.report(), 0.05);
        assertEquals(List.of(64, 128), m.artifact().metadata().outputDims());
        assertEquals(AdaptorTrainer.MATRYOSHKA, m.artifact().metadata().method());
        assertRoundTrip(m.artifact());
    }

    @Test
    public void searchAdaptorLearns() {
        // Search-Adaptor trains the full dimension only (served prefixes are plain truncations)
        AdaptorConfig c =
                AdaptorConfig.searchAdaptor(List.of(384)).withEpochs(10).withDevice("cpu");
        TrainedModel m = new AdaptorTrainer(c).train(data(), (s, t) -> System.out.println(s));
        assertImproves(m.report(), 0.005);
        assertRoundTrip(m.artifact());
    }

    @Test
    public void temperatureMrlLearnsAndReportsRetention() {
        TemperatureConfig c =
                TemperatureConfig.defaults(List.of(64)).withEpochs(10).withDevice("cpu");
        TrainedModel m = new TemperatureTrainer(c).train(data(), (s, t) -> System.out.println(s));
        assertImproves(m.report(), 0.01);
        @SuppressWarnings("unchecked")
        Map<String, Object> retention =
                (Map<String, Object>) m.report().parameters().get("retention");
        int id = (Integer) retention.get("intrinsicDimension95Adapted");
        assertTrue("intrinsic dimension " + id, id > 0 && id <= 384);
        assertEquals(2, ((List<?>) retention.get("perDim")).size()); // 64 and 384
        assertRoundTrip(m.artifact());
    }

    @Test
    public void temperatureSpecificTemperaturesGoFromSoftToSharp() {
        double[] t = TemperatureTrainer.specificTemperatures(List.of(64, 384), List.of(0.03, 0.06, 0.1));
        assertEquals(0.1, t[0], 1e-12);
        assertEquals(0.03, t[1], 1e-12);
    }

    @Test
    public void smecStagesAndNestedOrder() {
        assertEquals(List.of(192, 96, 64), SmecTrainer.stages(384, List.of(64)));
        assertEquals(List.of(192, 128, 64), SmecTrainer.stages(384, List.of(64, 128)));
        assertEquals(List.of(256), SmecTrainer.stages(384, List.of(256)));
        // stage 1 keeps {1, 3, 4} of 5; stage 2 keeps positions {0, 2} of those = {1, 4}
        int[] order = SmecTrainer.nestedOrder(5, List.of(new int[] {1, 3, 4}, new int[] {0, 2}));
        org.junit.Assert.assertArrayEquals(new int[] {1, 4, 3, 0, 2}, order);
    }

    @Test
    public void smecLearnsAndServesItsStagesAsPrefixes() {
        SmecConfig c = SmecConfig.defaults(List.of(128)).withEpochsPerStage(10).withDevice("cpu");
        TrainedModel m = new SmecTrainer(c).train(data(), (s, t) -> System.out.println(s));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> stages =
                (List<Map<String, Object>>) m.report().parameters().get("stageReports");
        assertEquals(2, stages.size());
        double stage1Start = (Double) stages.get(0).get("startValidationNdcg");
        double stage1Best = (Double) stages.get(0).get("bestValidationNdcg");
        @SuppressWarnings("unchecked")
        double stage1Trained =
                (Double) ((Map<String, Object>) stages.get(0).get("selection")).get("best_validation_ndcg@10");
        assertTrue("stage 1 " + stage1Trained + " vs start " + stage1Start, stage1Trained > stage1Start + 0.005);
        assertTrue(stage1Best >= stage1Start);
        // the exported model at 128 reproduces the last stage's shipped validation figure, and beats the frozen 128-d
        // prefix
        double exported;
        try (JavaEncoder enc = new JavaEncoder(m.artifact(), 128)) {
            exported = RetrievalEvaluator.standard()
                    .evaluate(
                            data().validation()
                                    .encoded(
                                            ModelEvaluator.encode(
                                                    enc, data().validation().queries()),
                                            ModelEvaluator.encode(enc, data().corpus())),
                            Encoding.FLOAT)
                    .ndcg();
        }
        assertEquals((Double) stages.get(1).get("bestValidationNdcg"), exported, 1e-4);
        double prefix = RetrievalEvaluator.standard()
                .evaluate(
                        data().validation()
                                .encoded(
                                        TrainerSupport.prefix(
                                                data().validation().queries(), 128),
                                        TrainerSupport.prefix(data().corpus(), 128)),
                        Encoding.FLOAT)
                .ndcg();
        assertTrue("SMEC 128-d " + exported + " vs frozen prefix " + prefix, exported > prefix + 0.01);
        assertEquals(ModelMetadata.OUTPUT_EMBEDDING, m.artifact().metadata().output());
        assertRoundTrip(m.artifact());
    }
}
