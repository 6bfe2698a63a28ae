package dev.compress.training.trainer;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;

import dev.compress.training.eval.RetrievalEvaluator;
import dev.compress.training.sampling.TrainingData;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.Test;

/**
 * The cross-validated mask choice on real scifact training queries: folds partition the judged queries, no
 * query is scored by a predictor that trained on it, and the choice falls back to the whole query when no
 * candidate beats it by more than chance.
 */
public class MaskCrossValidationTests {

    @Test
    public void foldsPartitionTheItemsReproducibly() {
        Folds f = Folds.of(103, 5, 7);
        int[] seen = new int[103];
        for (int k = 0; k < 5; k++) {
            int size = f.heldOut(k).length;
            assertTrue("fold " + k + " has " + size, size == 20 || size == 21);
            assertEquals(103 - size, f.training(k).length);
            Set<Integer> training = new HashSet<>();
            Arrays.stream(f.training(k)).forEach(training::add);
            for (int i : f.heldOut(k)) {
                seen[i]++;
                assertFalse(training.contains(i));
            }
        }
        for (int s : seen) {
            assertEquals(1, s);
        }
        assertArrayEquals(f.foldOf(), Folds.of(103, 5, 7).foldOf());
        assertFalse(Arrays.equals(f.foldOf(), Folds.of(103, 5, 8).foldOf()));
    }

    /**
     * A predictor that memorises: for a query it trained on it returns that query's oracle importance (its own
     * judgments), for any other query the magnitude of the query vector (the norm mask). Out of fold, every
     * query must therefore score exactly as the norm mask does; one leaked query would score as its oracle.
     */
    @Test
    public void noQueryIsScoredByAPredictorTrainedOnIt() {
        TrainingData data = AdaptorTrainersTests.data();
        MaskCrossValidation cv = new MaskCrossValidation(data, 5, 3, RetrievalEvaluator.standard());
        List<Map<Integer, Float>> gains = new java.util.ArrayList<>();
        for (int i = 0; i < data.queries().size(); i++) {
            gains.add(new java.util.HashMap<>());
        }
        data.positives().forEach(p -> gains.get(p.query()).put(p.doc(), p.gain()));
        float[][] oracle = QueryMaskTrainer.oracleImportance(data.queries(), data.corpus(), gains, 100, 64, 0);
        int[] scored = new int[data.queries().size()];
        MaskCrossValidation.FoldPredictor memoriser = (trainRows, heldOutRows) -> {
            Set<Integer> trained = new HashSet<>();
            Arrays.stream(trainRows).forEach(trained::add);
            float[][] out = new float[heldOutRows.length][];
            for (int i = 0; i < heldOutRows.length; i++) {
                int row = heldOutRows[i];
                scored[row]++;
                float[] q = data.queries().row(row);
                out[i] = new float[q.length];
                for (int j = 0; j < q.length; j++) {
                    out[i][j] = trained.contains(row) ? oracle[row][j] : Math.abs(q[j]);
                }
            }
            return out;
        };
        List<MaskCrossValidation.Candidate> learned = cv.learned(0.1, List.of(0.3), memoriser);
        MaskCrossValidation.Candidate norm =
                cv.judgmentFree(List.of("norm"), List.of(0.3)).get(0);
        assertArrayEquals(norm.scores().perQueryNdcg(), learned.get(0).scores().perQueryNdcg(), 0);
        int judged = 0;
        for (int s : scored) {
            assertTrue(s <= 1);
            judged += s;
        }
        assertEquals(cv.set().queries().size(), judged);
        // the memoriser does tell the two apart: scored in-sample it beats the norm mask clearly
        MaskCrossValidation.FoldPredictor inSample = (trainRows, heldOutRows) -> {
            int[] all = new int[data.queries().size()];
            Arrays.setAll(all, i -> i);
            return memoriser.trainAndScore(all, heldOutRows);
        };
        double leaked = cv.learned(0.1, List.of(0.3), inSample).get(0).scores().ndcg();
        assertTrue(
                "in-sample " + leaked + " vs norm " + norm.scores().ndcg(),
                leaked > norm.scores().ndcg() + 0.05);
    }

    /**
     * On scifact the judgment-free masks at 10-30% of the dimensions lose to the whole query, so none is
     * served; the oracle mask (each query's own judgments) beats it by far and is.
     */
    @Test
    public void choiceFallsBackToTheWholeQueryUnlessACandidateBeatsIt() {
        TrainingData data = AdaptorTrainersTests.data();
        MaskCrossValidation cv = new MaskCrossValidation(data, 5, 3, RetrievalEvaluator.standard());
        List<MaskCrossValidation.Candidate> losing =
                cv.judgmentFree(QueryMaskTrainer.UNSUPERVISED_MASKS, List.of(0.1, 0.2, 0.3));
        MaskSelection.Choice none = MaskSelection.choose(losing, cv.full(), cv.folds());
        assertTrue("served " + none.served(), none.wholeQuery());
        assertEquals(0, none.lowerBound(), 0);

        List<Map<Integer, Float>> gains = new java.util.ArrayList<>();
        for (int i = 0; i < cv.set().queries().size(); i++) {
            gains.add(new java.util.HashMap<>());
        }
        var qrels = cv.set().qrels();
        for (int i = 0; i < cv.set().queries().size(); i++) {
            for (var e : qrels.judgments(cv.set().queries().id(i)).entrySet()) {
                gains.get(i).put(cv.set().corpus().rowOf(e.getKey()), (float) (Math.pow(2, e.getValue()) - 1));
            }
        }
        float[][] oracle =
                QueryMaskTrainer.oracleImportance(cv.set().queries(), cv.set().corpus(), gains, 100, 64, 0);
        MaskCrossValidation.Candidate best = cv.learned(0.1, List.of(0.3), (trainRows, heldOutRows) -> {
                    float[][] out = new float[heldOutRows.length][];
                    for (int i = 0; i < heldOutRows.length; i++) {
                        out[i] = oracle[cv.set().queries().rowOf(data.queries().id(heldOutRows[i]))];
                    }
                    return out;
                })
                .get(0);
        List<MaskCrossValidation.Candidate> withOracle = new java.util.ArrayList<>(losing);
        withOracle.add(best);
        MaskSelection.Choice chosen = MaskSelection.choose(withOracle, cv.full(), cv.folds());
        assertNotEquals(null, chosen.served());
        assertEquals(best, chosen.served());
        assertTrue(chosen.lowerBound() > 0);
    }
}
