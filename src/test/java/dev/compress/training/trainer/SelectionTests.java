package dev.compress.training.trainer;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import dev.compress.training.TestData;
import dev.compress.training.data.EmbeddedDataset;
import dev.compress.training.data.Qrels;
import dev.compress.training.eval.Encoding;
import dev.compress.training.eval.ModelEvaluator;
import dev.compress.training.eval.RetrievalEvaluator;
import dev.compress.training.eval.Scores;
import dev.compress.training.inference.CpuEncoders;
import dev.compress.training.inference.Encoder;
import dev.compress.training.sampling.QuerySplit;
import dev.compress.training.sampling.TrainingData;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.Test;

/**
 * Every learned adapter starts where PCA is, and ships that start unless it beats it on validation by more
 * than chance: trained on judgments that carry no signal (each training query's relevant documents
 * replaced by random ones; validation judgments stay real), a trainer ships PCA itself and says so.
 */
public class SelectionTests {

    private static TrainingData noSignal() throws IOException {
        EmbeddedDataset ds = TestData.dataset("scifact", "bge-small-en-v1.5");
        Qrels train = ds.beir().qrels("train");
        QuerySplit split = QuerySplit.ofDatasetSplits(train, ds.beir().qrels("test"), 0.1, 0);
        List<String> docs = ds.corpus().ids();
        Random rnd = new Random(7);
        Map<String, Map<String, Integer>> judgments = new LinkedHashMap<>();
        for (String q : split.train()) {
            Map<String, Integer> random = new LinkedHashMap<>();
            for (String ignored : train.relevant(q)) {
                random.put(docs.get(rnd.nextInt(docs.size())), 1);
            }
            judgments.put(q, random);
        }
        for (String q : split.validation()) {
            judgments.put(q, train.judgments(q));
        }
        return TrainingData.build(ds, new Qrels(judgments), split, 30);
    }

    /** The model's output equals PCA's at every served dimension. */
    private static void assertServesPca(TrainedModel model, TrainingData data, List<Integer> dims) {
        TrainedModel pca = new PcaTrainer(dims, false).train(data, TrainingListener.NONE);
        float[][] sample = new float[20][];
        for (int i = 0; i < sample.length; i++) {
            sample[i] = new float[data.dim()];
            data.corpus().readBlock(i * 50, 1, sample[i], 0);
        }
        for (int d : dims) {
            try (Encoder ours = CpuEncoders.forServing(model.artifact(), d);
                    Encoder theirs = CpuEncoders.forServing(pca.artifact(), d)) {
                float[][] a = ours.encode(sample);
                float[][] b = theirs.encode(sample);
                for (int i = 0; i < a.length; i++) {
                    assertArrayEquals("dims " + d + " row " + i, b[i], a[i], 1e-4f);
                }
            }
        }
    }

    private static void assertShippedStart(TrainingReport r) {
        Selection s = r.selection();
        assertTrue("shipped epoch " + s.shippedEpoch() + ", lower bound " + s.lowerBound(), s.shippedStart());
        assertEquals(0, r.bestEpoch());
        assertEquals(r.epochs().get(0).validationNdcg(), r.bestValidationNdcg(), 0);
        assertEquals("start", s.asMap().get("shipped"));
    }

    @Test
    public void matryoshkaAdaptorWithoutSignalShipsPca() throws IOException {
        TrainingData data = noSignal();
        AdaptorConfig c =
                AdaptorConfig.matryoshkaAdaptor(List.of(64, 128)).withEpochs(3).withDevice("cpu");
        TrainedModel m = new AdaptorTrainer(c).train(data, TrainingListener.NONE);
        assertShippedStart(m.report());
        assertServesPca(m, data, List.of(64, 128));
    }

    @Test
    public void diveWithoutSignalShipsPca() throws IOException {
        TrainingData data = noSignal();
        DiveConfig c = DiveConfig.regularised(64).withEpochs(3).withDevice("cpu");
        TrainedModel m = new DiveTrainer(c).train(data, TrainingListener.NONE);
        assertShippedStart(m.report());
        assertServesPca(m, data, List.of(64));
    }

    @Test
    public void epochZeroIsPcaOnValidation() throws IOException {
        TrainingData data = noSignal();
        TrainedModel pca = new PcaTrainer(List.of(64), false).train(data, TrainingListener.NONE);
        TrainedModel m = new AdaptorTrainer(
                        AdaptorConfig.searchAdaptor(List.of(64)).withEpochs(1).withDevice("cpu"))
                .train(data, TrainingListener.NONE);
        try (Encoder enc = CpuEncoders.forServing(pca.artifact(), 64)) {
            double expected = RetrievalEvaluator.standard()
                    .evaluate(
                            data.validation()
                                    .encoded(
                                            ModelEvaluator.encode(
                                                    enc, data.validation().queries()),
                                            ModelEvaluator.encode(
                                                    enc, data.validation().corpus())),
                            Encoding.FLOAT)
                    .ndcg();
            assertEquals(expected, m.report().epochs().get(0).validationNdcg(), 1e-4);
        }
    }

    /**
     * Trained on judgments that carry no signal, the query-mask trainer serves the whole query: the fall-back of
     * the cross-validated choice ({@link MaskSelection}) when no candidate beats it, with real training.
     */
    @Test
    public void queryMaskWithoutSignalServesTheWholeQuery() throws IOException {
        TrainingData data = noSignal();
        QueryMaskConfig c = QueryMaskConfig.paper(0.3)
                .withTaus(List.of(0.03, 0.1))
                .withEpochs(40)
                .withDevice("cpu");
        TrainedModel m = new QueryMaskTrainer(c).train(data, TrainingListener.NONE);
        Map<String, Object> params = m.artifact().metadata().trainingParameters();
        // chosen by cross-validation over the training queries, whose judgments carry no signal here: no mask
        // (learned out of fold, or judgment-free) beats the whole query on them by more than chance
        assertEquals(
                params.get("crossValidatedNdcgByRatio") + " " + params.get("crossValidatedBaselinesByRatio"),
                1.0,
                (Double) params.get(QueryMaskTrainer.VALIDATED_RATIO),
                0);
        assertEquals(0.0, (Double) params.get("validatedRatioLowerBound"), 0);
        assertEquals(QueryMaskConfig.DEFAULT_FOLDS, params.get("crossValidationFolds"));
    }

    /** Per-query nDCG@10 around {@code mean}, the same noise for every call with the same {@code seed}. */
    private static Scores around(double mean, long seed) {
        Random rnd = new Random(seed);
        double[] ndcg = new double[200];
        for (int i = 0; i < ndcg.length; i++) {
            ndcg[i] = mean + 0.05 * rnd.nextGaussian();
        }
        return Scores.of(ndcg, new double[ndcg.length]);
    }

    private static PrefixScores nested(double at64, double at128) {
        Scores s64 = around(at64, 1);
        Scores s128 = around(at128, 2);
        double[] mean = new double[s64.perQueryNdcg().length];
        for (int i = 0; i < mean.length; i++) {
            mean[i] = (s64.perQueryNdcg()[i] + s128.perQueryNdcg()[i]) / 2;
        }
        return new PrefixScores(Scores.of(mean, new double[mean.length]), Map.of(64, s64, 128, s128));
    }

    @Test
    public void aNestedModelBelowTheStartAtOneDimensionShipsTheStart() {
        PrefixScores start = nested(0.50, 0.60);
        // a large gain at 128 lifts the mean well clear of chance, while 64 is a little below the start
        Selection hidden = Selection.chooseNested(0, start, 7, nested(0.49, 0.80));
        assertTrue("lower bound " + hidden.lowerBound(), hidden.lowerBound() > 0);
        assertEquals(List.of(64), hidden.belowStartAt());
        assertTrue(hidden.shippedStart());
        assertEquals(List.of(64), hidden.asMap().get("below_start_at_dimensions"));

        Selection both = Selection.chooseNested(0, start, 7, nested(0.52, 0.80));
        assertEquals(List.of(), both.belowStartAt());
        assertEquals(7, both.shippedEpoch());
        assertEquals("trained", both.asMap().get("shipped"));
    }

    /** Student's t quantiles, against the one-sided 95% column of the standard table. */
    @Test
    public void theIntervalTakesStudentsTQuantileForItsQueries() {
        double[][] table = {
            {1, 6.314}, {2, 2.920}, {3, 2.353}, {4, 2.132}, {5, 2.015}, {10, 1.812}, {30, 1.697}, {120, 1.658}
        };
        for (double[] row : table) {
            assertEquals("df " + (int) row[0], row[1], Selection.tQuantile((int) row[0]), 0.01);
        }
    }

    /**
     * A gain on three validation queries that the normal quantile would call more than chance, but Student's t
     * does not, ships the start; so does any gain on one query, which gives no interval at all.
     */
    @Test
    public void fewValidationQueriesShipTheStartUnlessTheGainClearsStudentsInterval() {
        Scores start = scores(0.5, 0.5, 0.5);
        Scores best = scores(0.60, 0.52, 0.56);
        double[] difference = best.pairedDifference(start);
        assertTrue(difference[0] - 1.645 * difference[1] > 0);
        assertTrue(Selection.choose(0, start, 4, best).shippedStart());
        assertEquals(
                "trained",
                Selection.choose(0, start, 4, scores(0.60, 0.58, 0.59)).asMap().get("shipped"));

        Selection single = Selection.choose(0, scores(0.1), 4, scores(0.9));
        assertTrue(single.shippedStart());
        assertTrue(Double.isNaN(single.lowerBound()));
        assertTrue(Double.isNaN(scores(0.9).pairedDifference(scores(0.1))[1]));
    }

    private static Scores scores(double... perQuery) {
        return Scores.of(perQuery, perQuery);
    }
}
