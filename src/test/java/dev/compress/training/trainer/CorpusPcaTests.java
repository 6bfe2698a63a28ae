package dev.compress.training.trainer;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import dev.compress.training.data.VectorSet;
import dev.compress.training.model.ModelArtifact;
import dev.compress.training.sampling.ComputedOnce;
import dev.compress.training.sampling.TrainingData;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CancellationException;
import org.junit.Test;

/**
 * A job fits its corpus PCA once: the PCA baseline, an adapter's start and the intrinsic dimension
 * all take the fit its {@link TrainingData} holds, which is the fit of the corpus bit for bit.
 */
public class CorpusPcaTests {

    private static VectorSet randomRows(Random random, int n, int d) {
        float[] data = new float[n * d];
        for (int i = 0; i < data.length; i++) {
            data[i] = (float) (random.nextGaussian() * (1 + i % d / 10.0));
        }
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ids.add("d" + i);
        }
        return new VectorSet(ids, data, d);
    }

    private static TrainingData corpusOnly(VectorSet corpus) {
        return new TrainingData(
                corpus,
                randomRows(new Random(1), 2, corpus.dim()),
                List.of(),
                new int[0][],
                List.of(),
                null,
                new ComputedOnce());
    }

    private static CorpusPca fittedAgain() {
        throw new AssertionError("the corpus PCA was fitted a second time");
    }

    @Test
    public void theJobsFitIsTheCorpusFitBitForBit() {
        VectorSet corpus = randomRows(new Random(7), 120, 24);
        TrainingData data = corpusOnly(corpus);
        CorpusPca shared = CorpusPca.of(data);
        assertSame(shared, CorpusPca.of(data));
        CorpusPca fresh = CorpusPca.fit(corpus);
        assertArrayEquals(fresh.mean, shared.mean, 0);
        assertArrayEquals(fresh.axes.values, shared.axes.values, 0);
        for (int i = 0; i < fresh.axes.vectors.length; i++) {
            assertArrayEquals(fresh.axes.vectors[i], shared.axes.vectors[i], 0);
        }
    }

    @Test
    public void thePcaBaselineTheStartAndTheIntrinsicDimensionShareOneFit() {
        VectorSet corpus = randomRows(new Random(11), 90, 16);
        TrainingData data = corpusOnly(corpus);
        ModelArtifact pca = new PcaTrainer(List.of(4, 8), false)
                .train(data, TrainingListener.NONE)
                .artifact();
        CorpusPca fit = data.computed().get(CorpusPca.class, CorpusPcaTests::fittedAgain);
        float[] weight = pca.tensors().get("proj.weight").data();
        for (int c = 0; c < 8; c++) {
            for (int j = 0; j < 16; j++) {
                assertEquals((float) fit.axes.vectors[c][j], weight[c * 16 + j], 0f);
            }
        }
        float[] start = PcaStart.of(data).projection(8);
        for (int c = 0; c < 8; c++) {
            for (int j = 0; j < 16; j++) {
                assertEquals((float) fit.axes.vectors[c][j], start[c * 16 + j], 0f);
            }
        }
        assertEquals(PcaTrainer.intrinsicDimension(corpus, 0.95), PcaTrainer.intrinsicDimension(data, 0.95));
        assertSame(fit, CorpusPca.of(data));
    }

    @Test
    public void eachTypeIsComputedOnce() {
        ComputedOnce computed = new ComputedOnce();
        int[] calls = new int[1];
        String first = computed.get(String.class, () -> "fit " + ++calls[0]);
        assertEquals("fit 1", first);
        assertSame(first, computed.get(String.class, () -> "fit " + ++calls[0]));
        assertEquals(Integer.valueOf(2), computed.get(Integer.class, () -> ++calls[0]));
        assertEquals(2, calls[0]);
    }

    /**
     * A job fits the PCA ahead of its method, telling its listener the two phases as they advance, and a stop the
     * listener asks for ends the fit (there is no model yet to keep) and leaves nothing fitted.
     */
    @Test
    public void preparedWithPhasesAndStoppedWhenAsked() {
        VectorSet corpus = randomRows(new Random(5), 300, 16);
        List<String> phases = new ArrayList<>();
        TrainingListener recording = new TrainingListener() {
            @Override
            public void onEpoch(EpochStats stats, int totalEpochs) {}

            @Override
            public void onPhase(String phase, int done, int total) {
                phases.add(phase + " " + done + "/" + total);
            }
        };
        TrainingData data = corpusOnly(corpus);
        CorpusPca.prepare(DiveTrainer.METHOD, data, recording);
        assertEquals("corpus_pca_covariance 300/300", phases.get(phases.size() - 2));
        assertEquals("corpus_pca_decomposition 1/1", phases.getLast());
        assertTrue(phases.toString(), phases.getFirst().startsWith("corpus_pca_covariance "));
        assertSame(CorpusPca.of(data), CorpusPca.of(data));

        phases.clear();
        TrainingData untouched = corpusOnly(corpus);
        CorpusPca.prepare(TruncationTrainer.METHOD, untouched, recording);
        assertEquals(List.of(), phases);

        TrainingData stopped = corpusOnly(corpus);
        TrainingListener cancelling = new TrainingListener() {
            @Override
            public void onEpoch(EpochStats stats, int totalEpochs) {}

            @Override
            public boolean stopRequested() {
                return true;
            }
        };
        assertThrows(CancellationException.class, () -> CorpusPca.prepare(DiveTrainer.METHOD, stopped, cancelling));
        // nothing was kept: the next fit starts over
        CorpusPca.prepare(DiveTrainer.METHOD, stopped, recording);
        assertEquals("corpus_pca_decomposition 1/1", phases.getLast());
    }

    /** Householder-QL tells its steps in order over its three passes of about n each, ending with all done. */
    @Test
    public void householderStepsCountItsThreePasses() {
        int n = 20;
        VectorSet rows = randomRows(new Random(3), 60, n);
        double[][] a = PcaTrainer.covariance(rows, PcaTrainer.mean(rows));
        List<Integer> seen = new ArrayList<>();
        SymmetricEigen.householderQl(a, 4, (done, total) -> {
            assertEquals(3 * n, total);
            seen.add(done);
        });
        assertEquals((Integer) 0, seen.getFirst());
        assertEquals((Integer) (3 * n), seen.getLast());
        for (int i = 1; i < seen.size(); i++) {
            assertTrue(seen.toString(), seen.get(i) > seen.get(i - 1));
        }
        assertTrue(seen.toString(), seen.size() >= 3 * n);
    }
}
