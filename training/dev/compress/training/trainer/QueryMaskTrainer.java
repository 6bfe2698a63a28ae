package dev.compress.training.trainer;

import ai.djl.Device;
import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import ai.djl.training.GradientCollector;
import ai.djl.training.optimizer.Optimizer;
import dev.compress.training.data.EvalSet;
import dev.compress.training.data.VectorRows;
import dev.compress.training.data.VectorSet;
import dev.compress.training.engine.DeviceChoice;
import dev.compress.training.engine.DjlRuntime;
import dev.compress.training.engine.GradientSteps;
import dev.compress.training.eval.Encoding;
import dev.compress.training.eval.RetrievalEvaluator;
import dev.compress.training.eval.Scores;
import dev.compress.training.inference.CpuEncoders;
import dev.compress.training.inference.Encoder;
import dev.compress.training.mask.DimensionMasks;
import dev.compress.training.mask.FeedbackFeatures;
import dev.compress.training.mask.MaskEvaluation;
import dev.compress.training.model.LayerSpec;
import dev.compress.training.model.ModelArtifact;
import dev.compress.training.model.ModelMetadata;
import dev.compress.training.model.Tensor;
import dev.compress.training.sampling.HardNegativeMiner;
import dev.compress.training.sampling.PositivePair;
import dev.compress.training.sampling.Shuffle;
import dev.compress.training.sampling.TrainingData;
import dev.compress.training.sampling.UnsharedRandom;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * Query-aware dimension-mask predictor (Learning to Select: Query-Aware Adaptive Dimension Selection for Dense
 * Retrieval, an anonymous ACL submission with no public link; docs/papers.md summarises it). For each training query q with embedding e_q:
 * <pre>
 *   p = sum_d g_d e_d / sum_d g_d            over judged relevant documents d (gain g = 2^rating - 1)
 *   n = mean of M documents sampled uniformly without replacement from the top K non-relevant
 *       documents by the frozen vectors
 *   r = e_q * (p - n)   (element-wise)            target t = softmax(r / tau)
 *   x = [e_q, sqrt(D) e_q * p']                   p': the query's first-pass top document
 *   predictor s = W x + b (one Linear 2D -> D, dropout on its input while training)
 *   loss = KL(t || softmax(s)), mean over the batch
 * </pre>
 * At inference the mask keeps the top k = ratio * D dimensions of s (plain Java:
 * {@link DimensionMasks#learned}); the model's output kind is {@code dimension_scores} (D scores).
 *
 * <p>Where this departs from the paper: its predictor reads e_q alone (Linear D -> D). The target is a product of
 * the query with document means, which no linear map of e_q forms; the input here adds the pseudo-relevance
 * estimate of that product from the query's own first pass ({@link FeedbackFeatures}, with DIME-PRF's feedback
 * set, {@link #FEEDBACK}), so a query's mask costs one first pass at search time, as a DIME-PRF mask does. Over the
 * training queries, cross-validated, it scored above the query-only predictor and above the PRF masks on both data
 * sets; the out-of-fold figures of every trained model are in its report
 * ({@code crossValidatedNdcgByRatio}).
 *
 * <p>Choices where the paper is vague: (1) the M negatives are drawn once per query (seeded) so the
 * target is fixed across epochs; (2) within one tau the epoch is chosen by validation KL as the paper says
 * ({@link EpochLoop} with a loss validation), each tau stopping after {@value #PATIENCE} epochs without
 * improvement; across taus (KL values at different tau are not comparable) by validation masked nDCG@10
 * computed once per tau on its best epoch. The mask and share served when a query names none
 * ({@value #VALIDATED_MASK}, {@value #VALIDATED_RATIO}) are chosen by K-fold cross-validation over the training
 * queries ({@link MaskCrossValidation}: the predictor of every tau scored out of fold at every ratio, the norm,
 * DIME-PRF and Eclipse-PRF masks on every training query) rather than on the validation slice, where one of
 * some sixty candidates could win by chance; {@link MaskSelection} serves the best whose masked nDCG@10 beats
 * the full query with a paired lower bound above zero, if that rule also wins on folds it did not choose on,
 * otherwise ratio 1 (no mask). The predictor that ships
 * is trained on all training queries, with the tau of a winning learned mask, else the tau whose out-of-fold
 * mask is best at {@link QueryMaskConfig#ratio()};
 * (3) the validation targets are built the same way from
 * the validation queries' judgments; (4) dropout acts on the input vector with a seeded Java mask
 * (inverted dropout), so runs are reproducible; (5) the weight starts from PyTorch's default uniform
 * init. With unit-norm 384-d vectors r is of order 1e-4 to 1e-3, so softmax(r / tau) is nearly uniform
 * for every tau of the grid and the KL acts as a least-squares fit of r / tau; taus below 0.01 (a peaked
 * target) scored lower on validation ({@link QueryMaskConfig}).
 */
public final class QueryMaskTrainer implements Trainer {

    public static final String METHOD = "query_mask";

    /** Training parameter holding the share of dimensions chosen on validation (1 = keep the whole query). */
    public static final String VALIDATED_RATIO = "validatedRatio";

    /**
     * Training parameter holding the mask served at {@link #VALIDATED_RATIO} when a query names no ratio:
     * {@code learned} (this model's scores), or {@code norm}, {@code dime_prf} or {@code eclipse_prf} where one of
     * those beat the predictor on validation.
     */
    public static final String VALIDATED_MASK = "validatedMask";

    /** The unsupervised masks the predictor is validated against, as {@link MaskEvaluation} names them. */
    static final List<String> UNSUPERVISED_MASKS = List.of("norm", "dime_prf", "eclipse_prf");

    /** The shares a validated ratio is chosen from; 1 keeps every dimension, so the chosen mask never scores below the full query on validation. */
    static final List<Double> RATIO_GRID = List.of(0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0);

    /** A tau's training stops after this many epochs without a lower validation KL (its best epoch is kept). */
    static final int PATIENCE = 30;

    /**
     * How many top documents of the first pass the predictor's feedback averages ({@link FeedbackFeatures});
     * recorded in the model ({@link #FEEDBACK_DOCS}) so a query's rewrite repeats it.
     */
    static final int FEEDBACK = MaskEvaluation.Prf.defaults().feedbackDocs();

    /** Training parameter holding {@link #FEEDBACK}. */
    public static final String FEEDBACK_DOCS = "feedbackDocs";

    /**
     * The phase ({@link TrainingListener#onPhase}) that trains each tau's predictor on every fold of
     * the training queries, after the epochs; its units are fold trainings.
     */
    public static final String CROSS_VALIDATION_PHASE = "cross_validation";

    private final QueryMaskConfig config;

    /** The predictor's input rows ({@link FeedbackFeatures}) of the training queries and of the validation queries. */
    private record Inputs(VectorSet train, VectorSet validation, KeptInputs kept) {
        Inputs(VectorSet train, VectorSet validation, double dropout) {
            this(train, validation, KeptInputs.of(train, dropout));
        }
    }

    public QueryMaskTrainer(QueryMaskConfig config) {
        this.config = config;
    }

    @Override
    public String method() {
        return METHOD;
    }

    /** Oracle importance r = e_q * (p - n) of each query row of {@code queries}. */
    public static float[][] oracleImportance(
            VectorSet queries,
            VectorRows corpus,
            List<Map<Integer, Float>> gains,
            int negativePool,
            int negativesSampled,
            long seed) {
        List<Set<Integer>> relevant = new ArrayList<>();
        for (Map<Integer, Float> g : gains) {
            relevant.add(g.keySet());
        }
        int[][] pool = HardNegativeMiner.mine(queries, corpus, relevant, negativePool);
        int d = queries.dim();
        float[][] r = new float[queries.size()][d];
        Random rnd = new Random(seed);
        for (int i = 0; i < queries.size(); i++) {
            double[] p = new double[d];
            double total = 0;
            for (Map.Entry<Integer, Float> e : gains.get(i).entrySet()) {
                float[] x = corpus.row(e.getKey());
                for (int j = 0; j < d; j++) {
                    p[j] += e.getValue() * x[j];
                }
                total += e.getValue();
            }
            int[] sample = sample(pool[i], negativesSampled, rnd);
            double[] n = new double[d];
            for (int row : sample) {
                float[] x = corpus.row(row);
                for (int j = 0; j < d; j++) {
                    n[j] += x[j];
                }
            }
            float[] q = queries.row(i);
            for (int j = 0; j < d; j++) {
                r[i][j] = (float) (q[j] * (p[j] / total - n[j] / Math.max(1, sample.length)));
            }
        }
        return r;
    }

    /** softmax(r / tau) of each row. */
    public static float[][] targets(float[][] r, double tau) {
        float[][] t = new float[r.length][];
        for (int i = 0; i < r.length; i++) {
            double max = Double.NEGATIVE_INFINITY;
            for (float v : r[i]) {
                max = Math.max(max, v / tau);
            }
            double[] e = new double[r[i].length];
            double sum = 0;
            for (int j = 0; j < e.length; j++) {
                e[j] = Math.exp(r[i][j] / tau - max);
                sum += e[j];
            }
            t[i] = new float[e.length];
            for (int j = 0; j < e.length; j++) {
                t[i][j] = (float) (e[j] / sum);
            }
        }
        return t;
    }

    private static int[] sample(int[] pool, int m, Random rnd) {
        int[] copy = pool.clone();
        int n = Math.min(m, copy.length);
        for (int i = 0; i < n; i++) {
            int j = i + rnd.nextInt(copy.length - i);
            int t = copy[i];
            copy[i] = copy[j];
            copy[j] = t;
        }
        return java.util.Arrays.copyOf(copy, n);
    }

    @Override
    public TrainedModel train(TrainingData data, TrainingListener listener) {
        Device device = DeviceChoice.parse(config.device()).resolve();
        Engine engine = DjlRuntime.engine();
        long started = System.nanoTime();
        int d = data.dim();
        List<Map<Integer, Float>> trainGains = new ArrayList<>();
        for (int i = 0; i < data.queries().size(); i++) {
            trainGains.add(new HashMap<>());
        }
        for (PositivePair p : data.positives()) {
            trainGains.get(p.query()).put(p.doc(), p.gain());
        }
        EvalSet validation = data.validation();
        float[][] rTrain = oracleImportance(
                data.queries(),
                data.corpus(),
                trainGains,
                config.negativePool(),
                config.negativesSampled(),
                config.seed());
        float[][] rVal = oracleImportance(
                validation.queries(),
                validation.corpus(),
                gainsOf(validation),
                config.negativePool(),
                config.negativesSampled(),
                config.seed() + 1);
        Inputs inputs = new Inputs(
                FeedbackFeatures.of(data.queries(), data.corpus(), FEEDBACK),
                FeedbackFeatures.of(validation.queries(), validation.corpus(), FEEDBACK),
                config.dropout());
        MaskEvaluation masks = new MaskEvaluation(RetrievalEvaluator.standard());
        Scores full = RetrievalEvaluator.standard().evaluate(validation, Encoding.FLOAT);

        List<EpochStats> allEpochs = new ArrayList<>();
        List<TauRun> runs = new ArrayList<>();
        // epochs are numbered across the tau grid: each tau's run is its epoch 0 (untrained) and up to epochs() more
        int totalEpochs = (config.epochs() + 1) * config.taus().size();
        try (NDManager base = engine.newBaseManager(device)) {
            int epochBase = 0;
            for (double tau : config.taus()) {
                if (listener.stopRequested() && !runs.isEmpty()) {
                    break;
                }
                TauRun run = trainTau(
                        engine,
                        base,
                        device,
                        data,
                        inputs,
                        targets(rTrain, tau),
                        targets(rVal, tau),
                        tau,
                        epochBase,
                        totalEpochs,
                        listener,
                        masks,
                        full);
                allEpochs.addAll(run.epochs());
                runs.add(run);
                epochBase += config.epochs() + 1;
            }
        }
        MaskCrossValidation cv =
                new MaskCrossValidation(data, config.folds(), config.seed() + 2, RetrievalEvaluator.standard());
        List<Double> servable = RATIO_GRID.stream().filter(r -> r < 1.0).toList();
        List<MaskCrossValidation.Candidate> candidates = new ArrayList<>();
        Map<Double, List<MaskCrossValidation.Candidate>> learnedByTau = new LinkedHashMap<>();
        // each tau's predictor trains again on every fold, up to its chosen epoch: this can take longer than the
        // epochs above, so it reports progress
        int foldTrainings = runs.size() * cv.folds().k();
        int[] foldsDone = {0};
        listener.onPhase(CROSS_VALIDATION_PHASE, 0, foldTrainings);
        try (NDManager base = engine.newBaseManager(device)) {
            for (TauRun run : runs) {
                float[][] tTrain = targets(rTrain, run.tau());
                float[][] tVal = targets(rVal, run.tau());
                List<MaskCrossValidation.Candidate> learned =
                        cv.learned(run.tau(), learnedRatios(), (trainRows, heldOutRows) -> {
                            float[][] scores = trainFold(
                                    engine,
                                    base,
                                    device,
                                    data,
                                    inputs,
                                    tTrain,
                                    tVal,
                                    trainRows,
                                    heldOutRows,
                                    run.epochsTrained(),
                                    listener);
                            if (scores != null) {
                                listener.onPhase(CROSS_VALIDATION_PHASE, ++foldsDone[0], foldTrainings);
                            }
                            return scores;
                        });
                learnedByTau.put(run.tau(), learned);
                // the trained ratio, when off the grid, only picks the tau requests naming it get
                learned.stream().filter(c -> servable.contains(c.ratio())).forEach(candidates::add);
            }
        }
        List<MaskCrossValidation.Candidate> unsupervised = cv.judgmentFree(UNSUPERVISED_MASKS, servable);
        candidates.addAll(unsupervised);
        MaskSelection.Choice choice = MaskSelection.choose(candidates, cv.full(), cv.folds());
        TauRun chosen = shippedTau(runs, learnedByTau, choice);
        Map<String, Object> grid = new LinkedHashMap<>();
        for (TauRun run : runs) {
            Map<String, Object> g = new LinkedHashMap<>();
            g.put("bestEpoch", run.bestEpoch());
            g.put("validationKl", run.bestKl());
            g.put("validationMaskedNdcg", run.atTrainedRatio().ndcg());
            g.put("validationMaskedNdcgByRatio", run.byRatioNdcg());
            grid.put(Double.toString(run.tau()), g);
        }
        Map<String, Map<String, Double>> baselines = new LinkedHashMap<>();
        for (MaskCrossValidation.Candidate c : unsupervised) {
            baselines
                    .computeIfAbsent(c.mask(), m -> new LinkedHashMap<>())
                    .put(Double.toString(c.ratio()), c.scores().ndcg());
        }
        Map<String, Double> learnedByRatio = new LinkedHashMap<>();
        for (MaskCrossValidation.Candidate c : learnedByTau.getOrDefault(chosen.tau(), List.of())) {
            learnedByRatio.put(Double.toString(c.ratio()), c.scores().ndcg());
        }
        Map<String, Object> params = new LinkedHashMap<>(config.asMap());
        params.put(FEEDBACK_DOCS, FEEDBACK);
        params.put("selectedTau", chosen.tau());
        params.put("tauGrid", grid);
        params.put("validationMaskedNdcgFull", full.ndcg());
        params.put(VALIDATED_RATIO, choice.wholeQuery() ? 1.0 : choice.served().ratio());
        params.put(
                VALIDATED_MASK,
                choice.wholeQuery() ? "learned" : choice.served().mask());
        params.put("validatedRatioLowerBound", choice.lowerBound());
        params.put("validatedRatioMeanDifference", choice.meanDifference());
        params.put("selectionOutOfFoldGain", choice.outOfFoldGain());
        params.put("selectionOutOfFoldLowerBound", choice.outOfFoldLowerBound());
        params.put("validationMaskedNdcgByRatio", chosen.byRatioNdcg());
        params.put("crossValidationFolds", cv.folds().k());
        params.put("crossValidationQueries", cv.set().queries().size());
        params.put("crossValidationCandidates", candidates.size());
        params.put("crossValidatedNdcgFull", cv.full().ndcg());
        params.put("crossValidatedNdcgByRatio", learnedByRatio);
        params.put("crossValidatedBaselinesByRatio", baselines);
        TrainingReport report = new TrainingReport(
                METHOD,
                device.toString(),
                params,
                List.copyOf(allEpochs),
                chosen.bestEpoch(),
                chosen.atTrainedRatio().ndcg(),
                TrainerSupport.seconds(started),
                null);
        return new TrainedModel(artifact(d, chosen.weights(), params), report);
    }

    /** One tau's training: its epochs, its best epoch by validation KL, and that epoch's masked validation scores per ratio. */
    private record TauRun(
            double tau,
            List<EpochStats> epochs,
            int bestEpoch,
            int epochsTrained,
            double bestKl,
            Map<String, float[]> weights,
            Scores atTrainedRatio,
            Map<Double, Scores> byRatio) {

        Map<String, Double> byRatioNdcg() {
            Map<String, Double> m = new LinkedHashMap<>();
            byRatio.forEach((r, s) -> m.put(Double.toString(r), s.ndcg()));
            return m;
        }
    }

    private TauRun trainTau(
            Engine engine,
            NDManager base,
            Device device,
            TrainingData data,
            Inputs inputs,
            float[][] tTrain,
            float[][] tVal,
            double tau,
            int epochBase,
            int totalEpochs,
            TrainingListener listener,
            MaskEvaluation masks,
            Scores full) {
        int d = data.dim();
        EvalSet validation = data.validation();
        try (LayerNetwork net = new LayerNetwork(base, device, List.of(scoresLayer(d)), config.seed(), Set.of())) {
            Optimizer optimizer = TrainerSupport.adamW(config.learningRate(), config.weightDecay());
            Random rnd = new UnsharedRandom(config.seed() + 31);
            EpochLoop.Plan plan = new EpochLoop.Plan(
                    epochBase, config.epochs(), PATIENCE, config.batchSize(), totalEpochs, List.of("total"), null);
            TrainingListener withTau = new TrainingListener() {
                @Override
                public void onEpoch(EpochStats stats, int total) {
                    listener.onEpoch(withTau(stats, tau), total);
                }

                @Override
                public boolean stopRequested() {
                    return listener.stopRequested();
                }
            };
            EpochLoop.Result r = EpochLoop.run(
                    plan,
                    epoch -> Shuffle.permutation(data.queries().size(), rnd),
                    order -> order.length,
                    withTau,
                    (order, start, n) -> new double[] {
                        step(engine, base, net, optimizer, inputs.kept(), tTrain, order, start, n, rnd)
                    },
                    EpochLoop.Validation.loss("val_kl", () -> validationKl(base, net, inputs.validation(), tVal)),
                    net::snapshot);
            List<EpochStats> epochs = new ArrayList<>();
            for (EpochStats s : r.epochs()) {
                epochs.add(withTau(s, tau));
            }
            Map<Double, Scores> byRatio = new LinkedHashMap<>();
            try (Encoder encoder = CpuEncoders.forServing(artifact(d, r.shipped(), Map.of()), d)) {
                float[][] scores = encoder.encode(MaskEvaluation.rowsOf(inputs.validation()));
                for (double ratio : RATIO_GRID) {
                    int k = DimensionMasks.keep(d, ratio);
                    byRatio.put(
                            ratio,
                            ratio == 1.0
                                    ? full
                                    : masks.evaluate(validation, (i, q) -> DimensionMasks.topK(scores[i], k)));
                }
                int k = DimensionMasks.keep(d, config.ratio());
                Scores atTrained = byRatio.containsKey(config.ratio())
                        ? byRatio.get(config.ratio())
                        : masks.evaluate(validation, (i, q) -> DimensionMasks.topK(scores[i], k));
                // the masked nDCG@10 compares taus (KL at different tau is not comparable): once per tau, at its best
                // epoch
                Map<String, Double> figures = new LinkedHashMap<>();
                figures.put("val_kl", r.bestFigure());
                figures.put("tau", tau);
                EpochStats summary = new EpochStats(r.bestEpoch(), figures, null, atTrained.ndcg(), 0, 0);
                epochs.add(summary);
                listener.onEpoch(summary, totalEpochs);
                return new TauRun(
                        tau,
                        epochs,
                        r.bestEpoch(),
                        r.bestEpoch() - epochBase,
                        r.bestFigure(),
                        r.shipped(),
                        atTrained,
                        byRatio);
            }
        }
    }

    /**
     * The predictor that ships: the tau of a served learned mask, else the tau whose out-of-fold learned mask is
     * best at {@link QueryMaskConfig#ratio()} (what a request naming that ratio gets), else (no fold finished, or
     * a ratio of 1) the tau best at that ratio on the validation slice.
     */
    private TauRun shippedTau(
            List<TauRun> runs,
            Map<Double, List<MaskCrossValidation.Candidate>> learnedByTau,
            MaskSelection.Choice choice) {
        if (choice.wholeQuery() == false && choice.served().mask().equals("learned")) {
            for (TauRun run : runs) {
                if (run.tau() == choice.served().tau()) {
                    return run;
                }
            }
        }
        TauRun best = null;
        double bestNdcg = Double.NEGATIVE_INFINITY;
        for (TauRun run : runs) {
            for (MaskCrossValidation.Candidate c : learnedByTau.getOrDefault(run.tau(), List.of())) {
                if (c.ratio() == config.ratio() && c.scores().ndcg() > bestNdcg) {
                    bestNdcg = c.scores().ndcg();
                    best = run;
                }
            }
        }
        if (best != null) {
            return best;
        }
        best = runs.get(0);
        for (TauRun run : runs) {
            if (run.atTrainedRatio().ndcg() > best.atTrainedRatio().ndcg()) {
                best = run;
            }
        }
        return best;
    }

    /** The ratios below 1 of {@link #RATIO_GRID} and the trained ratio, at which the learned mask is cross-validated. */
    private List<Double> learnedRatios() {
        java.util.TreeSet<Double> r = new java.util.TreeSet<>(RATIO_GRID);
        r.add(config.ratio());
        return r.stream().filter(x -> x < 1.0).toList();
    }

    /**
     * One fold's predictor: trained on {@code trainRows} only, then scoring {@code heldOutRows}; null when the
     * budget or a cancel stopped it. Its epochs are capped at the epoch the tau's full run chose by validation KL
     * ({@code epochs}): K folds times the full run's epochs, patience included, would cost about K + 1 times one
     * tau grid, beyond the default training budget on nfcorpus; the cap keeps the folds at about K times the
     * full run's best epochs, and a fold (trained on (K - 1) / K of the queries) still ships its own best epoch
     * by validation KL up to that cap. The validation slice's judgments steer only that epoch, never which
     * training query is scored by which predictor.
     */
    private float[][] trainFold(
            Engine engine,
            NDManager base,
            Device device,
            TrainingData data,
            Inputs inputs,
            float[][] tTrainAll,
            float[][] tVal,
            int[] trainRows,
            int[] heldOutRows,
            int epochs,
            TrainingListener listener) {
        int d = data.dim();
        KeptInputs kept = inputs.kept().select(trainRows);
        float[][] tTrain = new float[trainRows.length][];
        for (int i = 0; i < trainRows.length; i++) {
            tTrain[i] = tTrainAll[trainRows[i]];
        }
        try (LayerNetwork net = new LayerNetwork(base, device, List.of(scoresLayer(d)), config.seed(), Set.of())) {
            Optimizer optimizer = TrainerSupport.adamW(config.learningRate(), config.weightDecay());
            Random rnd = new UnsharedRandom(config.seed() + 31);
            EpochLoop.Plan plan = new EpochLoop.Plan(0, epochs, 0, config.batchSize(), epochs, List.of("total"), null);
            TrainingListener stopOnly = new TrainingListener() {
                @Override
                public void onEpoch(EpochStats stats, int total) {}

                @Override
                public boolean stopRequested() {
                    return listener.stopRequested();
                }
            };
            EpochLoop.Result r = EpochLoop.run(
                    plan,
                    epoch -> Shuffle.permutation(trainRows.length, rnd),
                    order -> order.length,
                    stopOnly,
                    (order, start, n) ->
                            new double[] {step(engine, base, net, optimizer, kept, tTrain, order, start, n, rnd)},
                    EpochLoop.Validation.loss("val_kl", () -> validationKl(base, net, inputs.validation(), tVal)),
                    net::snapshot);
            if (listener.stopRequested()) {
                return null;
            }
            try (Encoder encoder = CpuEncoders.forServing(artifact(d, r.shipped(), Map.of()), d)) {
                return encoder.encode(MaskEvaluation.rowsOf(inputs.train().select(heldOutRows)));
            }
        }
    }

    /**
     * Training inputs as inverted dropout uses them: each kept input is divided by the keep
     * probability, computed once per job rather than at every step that draws it.
     */
    private record KeptInputs(float keep, VectorSet scaled) {
        static KeptInputs of(VectorSet inputs, double dropout) {
            float keep = (float) (1 - dropout);
            float[] scaled = inputs.data().clone();
            for (int i = 0; i < scaled.length; i++) {
                scaled[i] /= keep;
            }
            return new KeptInputs(keep, new VectorSet(inputs.ids(), scaled, inputs.dim()));
        }

        /** The inputs of {@code rows}, in that order. */
        KeptInputs select(int[] rows) {
            return new KeptInputs(keep, scaled.select(rows));
        }
    }

    private static EpochStats withTau(EpochStats s, double tau) {
        Map<String, Double> losses = new LinkedHashMap<>(s.losses());
        losses.put("tau", tau);
        return new EpochStats(
                s.epoch(), losses, s.activeTripletRatio(), s.validationNdcg(), s.trainSeconds(), s.validationSeconds());
    }

    private double step(
            Engine engine,
            NDManager base,
            LayerNetwork net,
            Optimizer optimizer,
            KeptInputs inputs,
            float[][] targets,
            int[] order,
            int start,
            int b,
            Random rnd) {
        int in = inputs.scaled().dim();
        float[] scaled = inputs.scaled().data();
        int d = targets[0].length;
        float[] x = new float[b * in];
        float[] t = new float[b * d];
        for (int i = 0; i < b; i++) {
            int row = order[start + i] * in;
            for (int j = 0; j < in; j++) {
                x[i * in + j] = rnd.nextFloat() < inputs.keep() ? scaled[row + j] : 0f;
            }
            System.arraycopy(targets[order[start + i]], 0, t, i * d, d);
        }
        try (NDManager m = base.newSubManager()) {
            NDArray input = m.create(x, new Shape(b, in));
            NDArray target = m.create(t, new Shape(b, d));
            double loss;
            try (GradientCollector c = GradientSteps.open(engine)) {
                NDArray l = AdaptorLosses.klToSoftmax(target, net.forward(input));
                c.backward(l);
                loss = l.getFloat();
            }
            TrainerSupport.update(optimizer, net.trainable());
            return loss;
        }
    }

    private static double validationKl(NDManager base, LayerNetwork net, VectorSet inputs, float[][] targets) {
        int d = targets[0].length;
        float[] t = new float[inputs.size() * d];
        for (int i = 0; i < targets.length; i++) {
            System.arraycopy(targets[i], 0, t, i * d, d);
        }
        try (NDManager m = base.newSubManager()) {
            NDArray logits = net.forward(m.create(inputs.data(), new Shape(inputs.size(), inputs.dim())));
            return AdaptorLosses.klToSoftmax(m.create(t, new Shape(inputs.size(), d)), logits)
                    .getFloat();
        }
    }

    /** The predictor: one linear layer from the {@link FeedbackFeatures} of a D-dimensional query to D scores. */
    private static LayerSpec scoresLayer(int d) {
        return LayerSpec.linear("scores", FeedbackFeatures.WIDTH * d, d);
    }

    /** The predictor as a model file: {@link #scoresLayer}, whose output is D dimension scores. */
    private static ModelArtifact artifact(int d, Map<String, float[]> weights, Map<String, Object> params) {
        int in = FeedbackFeatures.WIDTH * d;
        ModelMetadata metadata = new ModelMetadata(
                METHOD,
                in,
                List.of(d),
                ModelMetadata.OUTPUT_DIMENSION_SCORES,
                ModelMetadata.NORM_NONE,
                1,
                List.of(scoresLayer(d)),
                Map.of(),
                params,
                Map.of());
        Map<String, Tensor> tensors = new LinkedHashMap<>();
        tensors.put("scores.weight", new Tensor("scores.weight", new int[] {d, in}, weights.get("scores.weight")));
        tensors.put("scores.bias", new Tensor("scores.bias", new int[] {d}, weights.get("scores.bias")));
        return new ModelArtifact(metadata, tensors);
    }

    /** Gain (2^rating - 1) of each judged relevant corpus row, per query row of {@code set}. */
    public static List<Map<Integer, Float>> gainsOf(EvalSet set) {
        List<Map<Integer, Float>> out = new ArrayList<>();
        for (String q : set.queries().ids()) {
            Map<Integer, Float> g = new HashMap<>();
            for (var e : set.qrels().judgments(q).entrySet()) {
                int row = set.corpus().rowOf(e.getKey());
                if (row >= 0 && e.getValue() > 0) {
                    g.put(row, (float) (Math.pow(2, e.getValue()) - 1));
                }
            }
            out.add(g);
        }
        return out;
    }
}
