package dev.compress.training.mask;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import dev.compress.training.data.EvalSet;
import dev.compress.training.data.Qrels;
import dev.compress.training.data.VectorSet;
import dev.compress.training.eval.RetrievalEvaluator;
import dev.compress.training.eval.Scores;
import dev.compress.training.inference.Encoder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.Test;

public class MaskTableTests {

    @Test
    public void sweepHoldsEveryStepUpToOneAndTheTableRatioExactly() {
        List<Double> r = MaskEvaluation.sweep(0.02);
        assertEquals(50, r.size());
        assertEquals(0.02, r.get(0), 0);
        assertEquals(1.0, r.get(49), 0);
        assertTrue(r.contains(0.3));
    }

    /** Two "seeds" of fixed score functions: the learned line is their mean, the others match MaskEvaluation. */
    @Test
    public void linesMatchTheirMasksAndLearnedAveragesSeeds() {
        EvalSet set = randomSet(new Random(5), 40, 300, 16);
        MaskEvaluation evaluation = new MaskEvaluation(RetrievalEvaluator.standard());
        Encoder byNorm = scores(q -> {
            float[] a = new float[q.length];
            for (int j = 0; j < a.length; j++) {
                a[j] = Math.abs(q[j]);
            }
            return a;
        });
        Encoder prefix = scores(q -> {
            float[] a = new float[q.length];
            for (int j = 0; j < a.length; j++) {
                a[j] = -j;
            }
            return a;
        });
        MaskTable.Result t = MaskTable.build(
                "synthetic",
                "m",
                "test",
                set,
                evaluation,
                List.of(byNorm, prefix),
                0.25,
                0.25,
                MaskEvaluation.Prf.defaults());
        int k = DimensionMasks.keep(16, 0.25);
        Scores norm = evaluation.evaluate(set, (i, q) -> DimensionMasks.norm(q, k));
        Scores cutoff = evaluation.evaluate(set, (i, q) -> DimensionMasks.cutoff(16, k));
        assertEquals(norm.ndcg(), line(t, "norm").ndcg(), 1e-12);
        assertEquals(cutoff.ndcg(), line(t, "cutoff").ndcg(), 1e-12);
        MaskTable.Line learned = line(t, "learned");
        assertEquals((norm.ndcg() + cutoff.ndcg()) / 2, learned.ndcg(), 1e-12);
        assertEquals(Math.abs(norm.ndcg() - cutoff.ndcg()) / Math.sqrt(2), learned.sdAcrossSeeds(), 1e-12);
        for (MaskTable.Line l : t.lines()) {
            // the sweep includes ratio 1 (the full query), so its best is never below full
            assertTrue(l.mask(), l.bestNdcg() >= t.full().ndcg() - 1e-12);
            assertEquals(l.mask(), l.ndcg() - t.full().ndcg(), l.pairedDiff()[0], 1e-9);
        }
        assertTrue(MaskTable.markdown(List.of(t)).contains("| | | learned |"));
    }

    private static MaskTable.Line line(MaskTable.Result t, String mask) {
        return t.lines().stream().filter(l -> l.mask().equals(mask)).findFirst().orElseThrow();
    }

    private interface Scorer {
        float[] apply(float[] q);
    }

    private static Encoder scores(Scorer f) {
        return new Encoder() {
            @Override
            public int inputDim() {
                return 16;
            }

            @Override
            public int outputDim() {
                return 16;
            }

            @Override
            public float[][] encode(float[][] batch) {
                float[][] out = new float[batch.length][];
                for (int i = 0; i < batch.length; i++) {
                    out[i] = f.apply(batch[i]);
                }
                return out;
            }
        };
    }

    /** Queries near one of their relevant documents, so masks change the ranking without ruining it. */
    static EvalSet randomSet(Random rnd, int queries, int docs, int dim) {
        float[][] corpus = new float[docs][dim];
        List<String> docIds = new ArrayList<>();
        for (int d = 0; d < docs; d++) {
            corpus[d] = unit(rnd, dim, null, 0);
            docIds.add("d" + d);
        }
        float[][] q = new float[queries][];
        List<String> queryIds = new ArrayList<>();
        Map<String, Map<String, Integer>> judgments = new HashMap<>();
        for (int i = 0; i < queries; i++) {
            int rel = rnd.nextInt(docs);
            q[i] = unit(rnd, dim, corpus[rel], 1.5f);
            queryIds.add("q" + i);
            Map<String, Integer> j = new HashMap<>();
            j.put("d" + rnd.nextInt(docs), 1);
            j.put("d" + rel, 1 + rnd.nextInt(2));
            judgments.put("q" + i, j);
        }
        return new EvalSet(VectorSet.ofRows(queryIds, q), VectorSet.ofRows(docIds, corpus), new Qrels(judgments));
    }

    private static float[] unit(Random rnd, int dim, float[] toward, float weight) {
        float[] v = new float[dim];
        double n = 0;
        for (int j = 0; j < dim; j++) {
            v[j] = (float) rnd.nextGaussian() + (toward == null ? 0 : weight * toward[j] * (float) Math.sqrt(dim));
            n += v[j] * v[j];
        }
        for (int j = 0; j < dim; j++) {
            v[j] /= (float) Math.sqrt(n);
        }
        return v;
    }
}
