package dev.compress.training.trainer;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import dev.compress.training.data.EvalSet;
import dev.compress.training.data.VectorSet;
import dev.compress.training.eval.Encoding;
import dev.compress.training.eval.RetrievalEvaluator;
import dev.compress.training.inference.DjlEncoder;
import dev.compress.training.inference.JavaEncoder;
import dev.compress.training.mask.DimensionMasks;
import dev.compress.training.mask.FeedbackFeatures;
import dev.compress.training.mask.MaskEvaluation;
import dev.compress.training.model.ModelArtifact;
import dev.compress.training.model.ModelFile;
import dev.compress.training.model.ModelMetadata;
import dev.compress.training.sampling.TrainingData;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.Test;

public class QueryMaskTrainerTests {

    @Test
    public void oracleTargetsByHand() {
        // r = e_q * (p - n); softmax(r / tau)
        float[][] t = QueryMaskTrainer.targets(new float[][] {{0f, (float) Math.log(3) * 0.01f}}, 0.01);
        assertArrayEquals(new float[] {0.25f, 0.75f}, t[0], 1e-6f);
        dev.compress.training.data.VectorSet q =
                new dev.compress.training.data.VectorSet(List.of("q"), new float[] {1, 2}, 2);
        dev.compress.training.data.VectorSet c =
                new dev.compress.training.data.VectorSet(List.of("a", "b", "n"), new float[] {1, 0, 0, 1, -1, 1}, 2);
        // positives a (gain 1) and b (gain 3): p = (0.25, 0.75); the only non-relevant doc n = (-1, 1)
        float[][] r = QueryMaskTrainer.oracleImportance(q, c, List.of(Map.of(0, 1f, 1, 3f)), 10, 64, 0);
        assertArrayEquals(new float[] {1 * (0.25f + 1), 2 * (0.75f - 1)}, r[0], 1e-6f);
    }

    @Test
    public void predictorLearnsAndItsMasksBeatCutoff() {
        TrainingData data = AdaptorTrainersTests.data();
        QueryMaskConfig c = QueryMaskConfig.paper(0.3)
                .withTaus(List.of(0.03))
                .withEpochs(40)
                .withDevice("cpu");
        List<String> reports = new ArrayList<>();
        TrainedModel m = new QueryMaskTrainer(c).train(data, new TrainingListener() {
            @Override
            public void onEpoch(EpochStats stats, int totalEpochs) {
                reports.add("epoch");
            }

            @Override
            public void onPhase(String phase, int done, int total) {
                reports.add(phase + " " + done + "/" + total);
            }
        });
        // after the epochs, the one tau's predictor trains on each of the folds, each reported as done
        List<String> phases = new ArrayList<>();
        for (int done = 0; done <= QueryMaskConfig.DEFAULT_FOLDS; done++) {
            phases.add(QueryMaskTrainer.CROSS_VALIDATION_PHASE + " " + done + "/" + QueryMaskConfig.DEFAULT_FOLDS);
        }
        int firstPhase = reports.indexOf(phases.get(0));
        assertTrue(String.valueOf(reports), firstPhase > 0);
        assertEquals(phases, reports.subList(firstPhase, reports.size()));
        assertEquals(
                List.of("epoch"),
                reports.subList(0, firstPhase).stream().distinct().toList());
        List<EpochStats> epochs = m.report().epochs();
        double startKl = epochs.get(0).losses().get("val_kl");
        double bestKl =
                epochs.stream().mapToDouble(e -> e.losses().get("val_kl")).min().orElseThrow();
        assertTrue("validation KL " + bestKl + " vs start " + startKl, bestKl < startKl * 0.9);
        ModelArtifact model = ModelFile.fromBytes(ModelFile.toBytes(m.artifact()));
        assertEquals(ModelMetadata.OUTPUT_DIMENSION_SCORES, model.metadata().output());
        assertEquals(List.of(384), model.metadata().outputDims());
        // the predictor reads the query and its first-pass feedback, with the first pass it names
        assertTrue(FeedbackFeatures.readBy(model.metadata()));
        Map<String, Object> trained = model.metadata().trainingParameters();
        assertEquals(QueryMaskTrainer.FEEDBACK, ((Number) trained.get(QueryMaskTrainer.FEEDBACK_DOCS)).intValue());
        EvalSet val = data.validation();
        VectorSet inputs = FeedbackFeatures.of(val.queries(), val.corpus(), QueryMaskTrainer.FEEDBACK);
        int k = DimensionMasks.keep(384, 0.3);
        try (JavaEncoder predictor = new JavaEncoder(model, 384);
                DjlEncoder djl = new DjlEncoder(model, 384, ai.djl.Device.cpu())) {
            for (int i = 0; i < val.queries().size(); i++) {
                boolean[] mask = DimensionMasks.learned(predictor, inputs.row(i), k);
                assertEquals(k, DimensionMasks.count(mask));
                float[] a = predictor.encode(inputs.row(i));
                float[] b = djl.encode(inputs.row(i));
                for (int j = 0; j < a.length; j++) {
                    assertEquals(a[j], b[j], 1e-5);
                }
            }
            List<MaskEvaluation.Row> rows = new MaskEvaluation(RetrievalEvaluator.standard())
                    .table(val, List.of(0.3), predictor, MaskEvaluation.Prf.defaults());
            double cutoff = rows.stream()
                    .filter(r -> r.mask().equals("cutoff"))
                    .findFirst()
                    .orElseThrow()
                    .scores()
                    .ndcg();
            double learned = rows.stream()
                    .filter(r -> r.mask().equals("learned"))
                    .findFirst()
                    .orElseThrow()
                    .scores()
                    .ndcg();
            assertTrue("learned " + learned + " vs cutoff " + cutoff, learned > cutoff + 0.05);
            double full =
                    RetrievalEvaluator.standard().evaluate(val, Encoding.FLOAT).ndcg();
            assertEquals(full, rows.get(0).scores().ndcg(), 1e-12);
            // the ratio served by default beats the full query over the training queries, cross-validated, by more
            // than chance, or is the full query
            Map<String, Object> params = model.metadata().trainingParameters();
            double validated = ((Number) params.get(QueryMaskTrainer.VALIDATED_RATIO)).doubleValue();
            assertTrue(QueryMaskTrainer.RATIO_GRID.contains(validated));
            assertEquals(QueryMaskConfig.DEFAULT_FOLDS, ((Number) params.get("crossValidationFolds")).intValue());
            String served = (String) params.get(QueryMaskTrainer.VALIDATED_MASK);
            double fullCv = ((Number) params.get("crossValidatedNdcgFull")).doubleValue();
            double lowerBound = ((Number) params.get("validatedRatioLowerBound")).doubleValue();
            if (validated < 1.0) {
                @SuppressWarnings("unchecked")
                Map<String, Double> table = served.equals("learned")
                        ? (Map<String, Double>) params.get("crossValidatedNdcgByRatio")
                        : ((Map<String, Map<String, Double>>) params.get("crossValidatedBaselinesByRatio")).get(served);
                double chosen = table.get(Double.toString(validated));
                assertTrue("served " + chosen + " vs full " + fullCv, chosen > fullCv);
                assertTrue("lower bound " + lowerBound, lowerBound > 0);
                double outOfFold = ((Number) params.get("selectionOutOfFoldLowerBound")).doubleValue();
                assertTrue("out-of-fold lower bound " + outOfFold, outOfFold > 0);
            } else {
                assertEquals(0, lowerBound, 0);
            }
            @SuppressWarnings("unchecked")
            Map<String, Double> byRatio = (Map<String, Double>) params.get("validationMaskedNdcgByRatio");
            assertEquals(learned, byRatio.get("0.3"), 1e-9);
        }
    }
}
