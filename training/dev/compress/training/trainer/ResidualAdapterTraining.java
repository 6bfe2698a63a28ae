package dev.compress.training.trainer;

import ai.djl.Device;
import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import ai.djl.training.GradientCollector;
import ai.djl.training.optimizer.Optimizer;
import dev.compress.training.engine.DjlRuntime;
import dev.compress.training.engine.GradientSteps;
import dev.compress.training.model.LayerSpec;
import dev.compress.training.model.Tensor;
import dev.compress.training.sampling.TrainingData;
import dev.compress.training.sampling.TripletSampler;
import java.util.List;
import java.util.Map;

/**
 * The training Matryoshka-Adaptor, Search-Adaptor and TempAgg-MRL share; each supplies only its batch loss.
 *
 * <ul>
 *   <li>Network: the residual adapter f(e) = P e + W2 relu(W1 e + b1) + b2 of {@link
 *       LayerNetwork#residualAdapter}, P the corpus PCA rotation ({@link PcaStart}, fixed), W2 and b2 zero at the
 *       start, so epoch 0 is PCA at every served dimension.
 *   <li>Batches: {@link TripletSampler}'s triplets, as rows [queries; positives; negatives] with the graded
 *       relevance of every query to every document of the batch ({@link TrainerSupport#batchRelevance}).
 *   <li>Steps: AdamW; after each one a {@link WeightAverage} (horizon half an epoch) folds the new weights in.
 *   <li>Selection: {@link EpochLoop}, each epoch scored by the mean validation nDCG@10 of the averaged weights
 *       over the served dims, and tested against the start; the averaged weights of the chosen epoch ship.
 * </ul>
 */
final class ResidualAdapterTraining {

    /** A trainer's loss on one batch of {@code n} triplets. */
    interface BatchLoss {
        /**
         * @param adapted f(input), rows [queries; positives; negatives]
         * @param input the frozen embeddings of those rows
         * @param start P input: what the adapter computed before training
         * @param relevance n x 2n graded relevance of each query to each document row of the batch
         * @return the losses in the order of the run's loss names; the first is the one minimised
         */
        NDArray[] of(NDArray adapted, NDArray input, NDArray start, NDArray relevance, int n);
    }

    /** What a trainer's configuration fixes about a run; {@link AdaptorConfig} and {@link TemperatureConfig} do. */
    interface Settings {
        List<Integer> dims();

        /** Width of the adapter's hidden layer for inputs of {@code inputDim}. */
        int hidden(int inputDim);

        double learningRate();

        double weightDecay();

        int batchSize();

        int epochs();

        int patience();

        double hardNegativeFraction();

        int maxTripletsPerEpoch();

        long seed();
    }

    /** The loop's result and the shipped network: its layers and its tensors at the shipped weights. */
    record Outcome(EpochLoop.Result result, List<LayerSpec> layers, Map<String, Tensor> tensors) {}

    private ResidualAdapterTraining() {}

    static Outcome run(
            TrainingData data,
            TrainingListener listener,
            Settings settings,
            Device device,
            List<String> lossNames,
            BatchLoss loss) {
        Engine engine = DjlRuntime.engine();
        int d = data.dim();
        Map<Long, Float> gains = TrainerSupport.gains(data);
        try (NDManager base = engine.newBaseManager(device);
                LayerNetwork net = new LayerNetwork(
                        base,
                        device,
                        LayerNetwork.residualAdapter(d, settings.hidden(d)),
                        settings.seed(),
                        LayerNetwork.residualZeroInit(),
                        LayerNetwork.startTensors(PcaStart.of(data)),
                        LayerNetwork.startFrozen())) {
            Optimizer optimizer = TrainerSupport.adamW(settings.learningRate(), settings.weightDecay());
            TripletSampler sampler = new TripletSampler(
                    data, settings.hardNegativeFraction(), settings.maxTripletsPerEpoch(), settings.seed());
            WeightAverage average =
                    new WeightAverage(net, WeightAverage.halfEpoch(sampler.perEpoch(), settings.batchSize()));
            EpochLoop.Step<TripletSampler.Triplets> step = (t, from, n) -> {
                try (NDManager m = base.newSubManager()) {
                    float[] x = new float[3 * n * d];
                    TrainerSupport.gatherTriplets(data.queries(), data.corpus(), t, from, n, x);
                    NDArray input = m.create(x, new Shape(3L * n, d));
                    NDArray relevance = TrainerSupport.batchRelevance(
                            m, t, from, n, gains, data.corpus().size());
                    double[] out;
                    try (GradientCollector c = GradientSteps.open(engine)) {
                        NDArray[] l = loss.of(net.forward(input), input, net.start(input), relevance, n);
                        c.backward(l[0]);
                        out = new double[l.length];
                        for (int i = 0; i < l.length; i++) {
                            out[i] = l[i].getFloat();
                        }
                    }
                    TrainerSupport.update(optimizer, net.trainable());
                    average.update();
                    return out;
                }
            };
            EpochLoop.Plan plan = new EpochLoop.Plan(
                    0,
                    settings.epochs(),
                    settings.patience(),
                    settings.batchSize(),
                    settings.epochs(),
                    lossNames,
                    null);
            EpochLoop.Result r = EpochLoop.run(
                    plan,
                    sampler,
                    listener,
                    step,
                    EpochLoop.Validation.nestedNdcg(() -> TrainerSupport.validatePrefixes(
                            base, average::forward, settings.dims(), data.validation())),
                    average::snapshot);
            return new Outcome(r, net.layers(), net.exportTensors(r.shipped()));
        }
    }
}
