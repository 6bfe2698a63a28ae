package dev.compress.training.trainer;

import static dev.compress.training.inference.DjlLayers.constant;

import ai.djl.Device;
import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import ai.djl.training.GradientCollector;
import ai.djl.training.optimizer.Optimizer;
import ai.djl.training.tracker.Tracker;
import dev.compress.training.data.VectorRows;
import dev.compress.training.engine.DeviceChoice;
import dev.compress.training.engine.DjlRuntime;
import dev.compress.training.engine.GradientSteps;
import dev.compress.training.model.ModelArtifact;
import dev.compress.training.model.ModelMetadata;
import dev.compress.training.sampling.TrainingData;
import dev.compress.training.sampling.TripletSampler;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * DIVE (<a href="https://arxiv.org/abs/2605.20689">DIVE: Embedding Compression via Self-Limiting Gradient Updates</a>, Zhao, arXiv:2605.20689): a 3-layer MLP with H L2-normalised heads of k dims, trained with
 * triplet(head 1) + lambda * mean over {q, p, n} of head-wise NT-Xent, plus the optional
 * similarity-preservation term of {@link DiveConfig}. Each epoch visits every positive pair once
 * with one sampled negative; a final batch of fewer than 2 triplets is skipped (batch norm needs 2).
 * After each epoch, validation nDCG@10 (exact float search with head 1 over the whole corpus)
 * decides which epoch's weights are exported; epoch 0 is the untrained network.
 */
public final class DiveTrainer implements Trainer {

    public static final String METHOD = "dive";

    private final DiveConfig config;

    public DiveTrainer(DiveConfig config) {
        this.config = config;
    }

    @Override
    public String method() {
        return METHOD;
    }

    @Override
    public int hardNegativesPerQuery() {
        return config.hardNegativesPerQuery();
    }

    @Override
    public TrainedModel train(TrainingData data, TrainingListener listener) {
        Device device = DeviceChoice.parse(config.device()).resolve();
        Engine engine = DjlRuntime.engine();
        int d = data.dim();
        int b = config.batchSize();
        long started = System.nanoTime();
        try (NDManager base = engine.newBaseManager(device);
                DiveNetwork net = new DiveNetwork(
                        base,
                        device,
                        d,
                        config.hidden1(d),
                        config.hidden2(d),
                        config.heads(),
                        config.dims(),
                        config.seed(),
                        PcaStart.of(data).projection(config.heads() * config.dims()))) {
            Optimizer optimizer = Optimizer.adamW()
                    .optLearningRateTracker(Tracker.fixed((float) config.learningRate()))
                    .optWeightDecays((float) config.weightDecay())
                    .build();
            TripletSampler sampler = new TripletSampler(
                    data, config.hardNegativeFraction(), config.maxTripletsPerEpoch(), config.seed());
            Random pseudoQueries = new Random(config.seed() + 17);
            List<String> lossNames = config.preserveWeight() > 0
                    ? List.of("total", "triplet", "contrast", "preserve")
                    : List.of("total", "triplet", "contrast");
            EpochLoop.Plan plan = new EpochLoop.Plan(
                    0, config.epochs(), config.patience(), b, config.epochs(), lossNames, "active_triplet_ratio");
            float margin = (float)
                    (config.scaledMargin()
                            ? config.margin() * scoreGap(base, net, data, sampler.epoch(1))
                            : config.margin());
            EpochLoop.Result r = EpochLoop.run(
                    plan,
                    sampler,
                    listener,
                    (t, start, n) -> step(
                            engine, base, net, optimizer, data, t, start, n, pseudoQueries, lossNames.size(), margin),
                    EpochLoop.Validation.ndcg(
                            () -> TrainerSupport.validate(base, net::forwardHead1, data.validation())),
                    net::snapshot);
            Map<String, Object> parameters = new LinkedHashMap<>(config.asMap());
            parameters.put("hidden1", config.hidden1(d)); // resolved from "auto" (0)
            parameters.put("hidden2", config.hidden2(d));
            parameters.put("effectiveMargin", margin);
            ModelMetadata metadata = new ModelMetadata(
                    METHOD,
                    d,
                    List.of(config.dims()),
                    ModelMetadata.OUTPUT_EMBEDDING,
                    ModelMetadata.NORM_L2,
                    config.heads(),
                    net.exportLayers(),
                    Map.of(),
                    parameters,
                    Map.of());
            ModelArtifact artifact = new ModelArtifact(metadata, net.exportTensors(r.shipped()));
            TrainingReport report = new TrainingReport(
                    METHOD,
                    device.toString(),
                    parameters,
                    r.epochs(),
                    r.shippedEpoch(),
                    r.shippedNdcg(),
                    seconds(started),
                    r.selection());
            return new TrainedModel(artifact, report);
        }
    }

    /** One optimisation step; returns the loss values, then the share of triplets whose hinge is active. */
    private double[] step(
            Engine engine,
            NDManager base,
            DiveNetwork net,
            Optimizer optimizer,
            TrainingData data,
            TripletSampler.Triplets t,
            int start,
            int n,
            Random pseudoQueries,
            int losses,
            float margin) {
        boolean preserve = config.preserveWeight() > 0;
        int d = data.dim();
        int groups = preserve ? 4 : 3;
        float[] x = new float[groups * n * d];
        float[] gain = new float[n];
        for (int i = 0; i < n; i++) {
            copyRow(data.queries(), t.query()[start + i], x, i);
            copyRow(data.corpus(), t.positive()[start + i], x, n + i);
            copyRow(data.corpus(), t.negative()[start + i], x, 2 * n + i);
            if (preserve) {
                copyRow(data.corpus(), pseudoQueries.nextInt(data.corpus().size()), x, 3 * n + i);
            }
            gain[i] = t.gain()[start + i];
        }
        double[] out = new double[losses + 1];
        try (NDManager step = base.newSubManager()) {
            NDArray input = step.create(x, new Shape((long) groups * n, d));
            NDArray gains = step.create(gain);
            try (GradientCollector collector = GradientSteps.open(engine)) {
                NDArray heads = net.forwardTrain(input);
                NDArray q = heads.get(0 + ":" + n);
                NDArray p = heads.get(n + ":" + 2 * n);
                NDArray neg = heads.get(2 * n + ":" + 3 * n);
                NDArray q1 = q.get(":, 0, :");
                NDArray p1 = p.get(":, 0, :");
                NDArray n1 = neg.get(":, 0, :");
                NDArray[] triplet = DiveLosses.triplet(q1, p1, n1, gains, margin);
                float tau = (float) config.tau();
                NDArray contrast = DiveLosses.headwiseNtXent(q, tau)
                        .add(DiveLosses.headwiseNtXent(p, tau))
                        .add(DiveLosses.headwiseNtXent(neg, tau))
                        .mul(constant(input, 1f / 3));
                NDArray total = triplet[0].add(contrast.mul(constant(input, (float) config.lambda())));
                NDArray preserveLoss = null;
                if (preserve) {
                    NDArray r1 = heads.get(3 * n + ":" + 4 * n).get(":, 0, :");
                    NDArray anchors = q1.concat(r1);
                    NDArray pool = p1.concat(n1).concat(r1);
                    NDArray frozenAnchors = input.get("0:" + n).concat(input.get(3 * n + ":" + 4 * n));
                    NDArray frozenPool = input.get(n + ":" + 4 * n);
                    preserveLoss =
                            DiveLosses.preservation(anchors, pool, frozenAnchors, frozenPool, selfMask(step, n), (float)
                                    config.preserveTemperature());
                    total = total.add(preserveLoss.mul(constant(input, (float) config.preserveWeight())));
                }
                collector.backward(total);
                out[0] = total.getFloat();
                out[1] = triplet[0].getFloat();
                out[2] = contrast.getFloat();
                if (preserveLoss != null) {
                    out[3] = preserveLoss.getFloat();
                }
                out[losses] = triplet[1]
                                .sum()
                                .toType(ai.djl.ndarray.types.DataType.FLOAT32, false)
                                .getFloat()
                        / n;
            }
            TrainerSupport.update(optimizer, net.trainable());
        }
        return out;
    }

    /** [2n, 3n] mask: pseudo-query i (anchor n + i) is pool entry 2n + i and must not score itself. */
    private static NDArray selfMask(NDManager m, int n) {
        float[] mask = new float[2 * n * 3 * n];
        for (int i = 0; i < n; i++) {
            mask[(n + i) * 3 * n + 2 * n + i] = 1e9f;
        }
        return m.create(mask, new Shape(2L * n, 3L * n));
    }

    /** Mean |q.p - q.n| of head 1 at the start over (up to 4,096 of) the given triplets: the scale of what the hinge sees. */
    private static double scoreGap(NDManager base, DiveNetwork net, TrainingData data, TripletSampler.Triplets t) {
        int n = Math.min(4096, t.size());
        int d = data.dim();
        float[] x = new float[3 * n * d];
        for (int i = 0; i < n; i++) {
            copyRow(data.queries(), t.query()[i], x, i);
            copyRow(data.corpus(), t.positive()[i], x, n + i);
            copyRow(data.corpus(), t.negative()[i], x, 2 * n + i);
        }
        try (NDManager m = base.newSubManager()) {
            NDArray h = net.forwardHead1(m.create(x, new Shape(3L * n, d)));
            NDArray q = h.get("0:" + n);
            NDArray gap = q.mul(h.get(n + ":" + 2 * n))
                    .sum(new int[] {1})
                    .sub(q.mul(h.get(2 * n + ":" + 3 * n)).sum(new int[] {1}));
            return Math.max(1e-4, gap.abs().mean().getFloat());
        }
    }

    private static void copyRow(VectorRows from, int row, float[] to, int toRow) {
        from.readBlock(row, 1, to, toRow * from.dim());
    }

    private static double seconds(long since) {
        return (System.nanoTime() - since) / 1e9;
    }
}
