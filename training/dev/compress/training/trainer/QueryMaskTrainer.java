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
import dev.compress.training.eval.RetrievalEvaluator;
import dev.compress.training.inference.CpuEncoders;
import dev.compress.training.inference.Encoder;
import dev.compress.training.mask.DimensionMasks;
import dev.compress.training.mask.MaskEvaluation;
import dev.compress.training.model.LayerSpec;
import dev.compress.training.model.ModelArtifact;
import dev.compress.training.model.ModelMetadata;
import dev.compress.training.model.Tensor;
import dev.compress.training.sampling.HardNegativeMiner;
import dev.compress.training.sampling.PositivePair;
import dev.compress.training.sampling.TrainingData;
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
 *   predictor s = W e_q + b (one Linear D -> D, dropout on its input while training)
 *   loss = KL(t || softmax(s)), mean over the batch
 * </pre>
 * At inference the mask keeps the top k = ratio * D dimensions of s (plain Java:
 * {@link DimensionMasks#learned}); the model's output kind is {@code dimension_scores} (D scores).
 *
 * <p>Choices where the paper is vague: (1) the M negatives are drawn once per query (seeded) so the
 * target is fixed across epochs; (2) the tau grid is judged by validation masked nDCG@10 at
 * {@link QueryMaskConfig#ratio()} (KL values at different tau are not comparable), computed once per tau
 * on its best epoch, and, within one tau, the epoch by validation KL as the paper says, each tau stopping
 * after {@value #PATIENCE} epochs without improvement; (3) the validation targets are built the same way from
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

    /** The shares a validated ratio is chosen from; 1 keeps every dimension, so the chosen mask never scores below the full query on validation. */
    static final List<Double> RATIO_GRID = List.of(0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0);

    /** A tau's training stops after this many epochs without a lower validation KL (its best epoch is kept). */
    static final int PATIENCE = 30;

    private final QueryMaskConfig config;

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
        List<Map<Integer, Float>> valGains = gainsOf(validation);
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
                valGains,
                config.negativePool(),
                config.negativesSampled(),
                config.seed() + 1);
        MaskEvaluation masks = new MaskEvaluation(RetrievalEvaluator.standard());
        int k = DimensionMasks.keep(d, config.ratio());

        List<EpochStats> allEpochs = new ArrayList<>();
        Map<String, Object> grid = new LinkedHashMap<>();
        Map<String, float[]> bestWeights = null;
        double bestMaskedNdcg = Double.NEGATIVE_INFINITY;
        double bestTau = Double.NaN;
        int bestEpoch = 0;
        int epochBase = 0;
        // epochs are numbered across the tau grid: each tau's run is its epoch 0 (untrained) and up to epochs() more
        int totalEpochs = (config.epochs() + 1) * config.taus().size();
        try (NDManager base = engine.newBaseManager(device)) {
            for (double tau : config.taus()) {
                float[][] tTrain = targets(rTrain, tau);
                float[][] tVal = targets(rVal, tau);
                try (LayerNetwork net = new LayerNetwork(
                        base, device, List.of(LayerSpec.linear("scores", d, d)), config.seed(), Set.of())) {
                    Optimizer optimizer = TrainerSupport.adamW(config.learningRate(), config.weightDecay());
                    Random rnd = new Random(config.seed() + 31);
                    double bestKl = validationKl(base, net, validation.queries(), tVal);
                    Map<String, float[]> best = net.snapshot();
                    int bestTauEpoch = 0;
                    EpochStats s0 = new EpochStats(epochBase, Map.of("val_kl", bestKl, "tau", tau), null, null, 0, 0);
                    allEpochs.add(s0);
                    listener.onEpoch(s0, totalEpochs);
                    for (int epoch = 1;
                            epoch <= config.epochs() && epoch - bestTauEpoch <= PATIENCE && !listener.stopRequested();
                            epoch++) {
                        long te = System.nanoTime();
                        double trainKl = epoch(engine, base, net, optimizer, data.queries(), tTrain, rnd);
                        double trainSeconds = TrainerSupport.seconds(te);
                        long tv = System.nanoTime();
                        double kl = validationKl(base, net, validation.queries(), tVal);
                        if (kl < bestKl) {
                            bestKl = kl;
                            bestTauEpoch = epoch;
                            best = net.snapshot();
                        }
                        Map<String, Double> losses = new LinkedHashMap<>();
                        losses.put("total", trainKl);
                        losses.put("val_kl", kl);
                        losses.put("tau", tau);
                        EpochStats s = new EpochStats(
                                epochBase + epoch, losses, null, null, trainSeconds, TrainerSupport.seconds(tv));
                        allEpochs.add(s);
                        listener.onEpoch(s, totalEpochs);
                    }
                    // the masked nDCG@10 only compares taus (KL at different tau is not comparable): once per tau
                    double maskedAtBest = maskedNdcg(masks, validation, artifact(d, best, Map.of()), k);
                    EpochStats summary = new EpochStats(
                            epochBase + bestTauEpoch, Map.of("val_kl", bestKl, "tau", tau), null, maskedAtBest, 0, 0);
                    allEpochs.add(summary);
                    listener.onEpoch(summary, totalEpochs);
                    grid.put(
                            Double.toString(tau),
                            Map.of(
                                    "bestEpoch",
                                    bestTauEpoch,
                                    "validationKl",
                                    bestKl,
                                    "validationMaskedNdcg",
                                    maskedAtBest));
                    if (maskedAtBest > bestMaskedNdcg) {
                        bestMaskedNdcg = maskedAtBest;
                        bestTau = tau;
                        bestWeights = best;
                        bestEpoch = epochBase + bestTauEpoch;
                    }
                    epochBase += config.epochs() + 1;
                }
            }
        }
        Map<String, Object> params = new LinkedHashMap<>(config.asMap());
        params.put("selectedTau", bestTau);
        params.put("tauGrid", grid);
        double full = RetrievalEvaluator.standard()
                .evaluate(validation, dev.compress.training.eval.Encoding.FLOAT)
                .ndcg();
        params.put("validationMaskedNdcgFull", full);
        // the share served when a query names none: the best on validation, the full query unless a mask beats it
        Map<String, Double> byRatio = new LinkedHashMap<>();
        double validatedRatio = 1.0;
        double validatedNdcg = full;
        ModelArtifact chosen = artifact(d, bestWeights, Map.of());
        for (double r : RATIO_GRID) {
            double v = r == 1.0 ? full : maskedNdcg(masks, validation, chosen, DimensionMasks.keep(d, r));
            byRatio.put(Double.toString(r), v);
            if (v > validatedNdcg) {
                validatedNdcg = v;
                validatedRatio = r;
            }
        }
        params.put(VALIDATED_RATIO, validatedRatio);
        params.put("validationMaskedNdcgByRatio", byRatio);
        TrainingReport report = new TrainingReport(
                METHOD,
                device.toString(),
                params,
                List.copyOf(allEpochs),
                bestEpoch,
                bestMaskedNdcg,
                TrainerSupport.seconds(started),
                null);
        return new TrainedModel(artifact(d, bestWeights, params), report);
    }

    private double epoch(
            Engine engine,
            NDManager base,
            LayerNetwork net,
            Optimizer optimizer,
            VectorSet queries,
            float[][] targets,
            Random rnd) {
        int n = queries.size();
        int d = queries.dim();
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        for (int i = n - 1; i > 0; i--) {
            int j = rnd.nextInt(i + 1);
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        double sum = 0;
        int steps = 0;
        float keep = (float) (1 - config.dropout());
        for (int start = 0; start < n; start += config.batchSize()) {
            int b = Math.min(config.batchSize(), n - start);
            float[] x = new float[b * d];
            float[] t = new float[b * d];
            for (int i = 0; i < b; i++) {
                float[] q = queries.row(order[start + i]);
                for (int j = 0; j < d; j++) {
                    x[i * d + j] = rnd.nextFloat() < keep ? q[j] / keep : 0f;
                }
                System.arraycopy(targets[order[start + i]], 0, t, i * d, d);
            }
            try (NDManager m = base.newSubManager()) {
                NDArray input = m.create(x, new Shape(b, d));
                NDArray target = m.create(t, new Shape(b, d));
                try (GradientCollector c = engine.newGradientCollector()) {
                    NDArray loss = AdaptorLosses.klToSoftmax(target, net.forward(input));
                    c.backward(loss);
                    sum += loss.getFloat();
                }
                TrainerSupport.update(optimizer, net.trainable());
            }
            steps++;
        }
        return sum / steps;
    }

    private static double validationKl(NDManager base, LayerNetwork net, VectorSet queries, float[][] targets) {
        int d = queries.dim();
        float[] t = new float[queries.size() * d];
        for (int i = 0; i < targets.length; i++) {
            System.arraycopy(targets[i], 0, t, i * d, d);
        }
        try (NDManager m = base.newSubManager()) {
            NDArray logits = net.forward(m.create(queries.data(), new Shape(queries.size(), d)));
            return AdaptorLosses.klToSoftmax(m.create(t, new Shape(queries.size(), d)), logits)
                    .getFloat();
        }
    }

    private static double maskedNdcg(MaskEvaluation masks, EvalSet validation, ModelArtifact predictor, int k) {
        try (Encoder encoder =
                CpuEncoders.forServing(predictor, predictor.metadata().inputDim())) {
            float[][] scores = encoder.encode(MaskEvaluation.rowsOf(validation.queries()));
            return masks.evaluate(validation, (i, q) -> DimensionMasks.topK(scores[i], k))
                    .ndcg();
        }
    }

    /** The predictor as a model file: one linear layer D -> D whose output is D dimension scores. */
    private static ModelArtifact artifact(int d, Map<String, float[]> weights, Map<String, Object> params) {
        List<LayerSpec> layers = List.of(LayerSpec.linear("scores", d, d));
        ModelMetadata metadata = new ModelMetadata(
                METHOD,
                d,
                List.of(d),
                ModelMetadata.OUTPUT_DIMENSION_SCORES,
                ModelMetadata.NORM_NONE,
                1,
                layers,
                Map.of(),
                params,
                Map.of());
        Map<String, Tensor> tensors = new LinkedHashMap<>();
        tensors.put("scores.weight", new Tensor("scores.weight", new int[] {d, d}, weights.get("scores.weight")));
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
