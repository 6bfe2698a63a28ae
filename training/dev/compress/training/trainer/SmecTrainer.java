package dev.compress.training.trainer;

import static dev.compress.training.inference.DjlLayers.constant;

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
import dev.compress.training.eval.ModelEvaluator;
import dev.compress.training.eval.Scores;
import dev.compress.training.inference.CpuEncoders;
import dev.compress.training.inference.Encoder;
import dev.compress.training.mask.DimensionMasks;
import dev.compress.training.model.LayerSpec;
import dev.compress.training.model.ModelArtifact;
import dev.compress.training.model.ModelMetadata;
import dev.compress.training.model.Tensor;
import dev.compress.training.sampling.TrainingData;
import dev.compress.training.sampling.TripletSampler;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;

/**
 * SMEC (<a href="https://arxiv.org/abs/2510.12474">SMEC: Rethinking Matryoshka Representation Learning for Retrieval
 * Embedding Compression</a>, Zhang et al., EMNLP 2025) on frozen embeddings.
 *
 * <p><b>SMRL</b> (sequential stages). The dimension halves stage by stage, D -> D/2 -> D/4 -> ..., and a
 * requested dimension between two halvings becomes a stage of its own (D = 384, dims 64: 384 -> 192 ->
 * 96 -> 64). Stage 1 trains a residual adapter A(e) = P e + MLP(e) (P the corpus PCA rotation, fixed; last
 * layer zero, so it starts as PCA, where the paper starts at the identity) together with the first selection; every later stage trains only its own selection over the
 * previous stage's output, with everything before it frozen ({@link SmecConfig#adapterInEveryStage()} =
 * false). The paper fine-tunes its encoder through all stages; with {@code adapterInEveryStage} the
 * adapter likewise keeps training in every stage (from the previous stage's best weights) while each
 * earlier stage's selection stays frozen, and S-XBM's teacher is the frozen raw embedding. A stage ends when its validation nDCG@10
 * has not improved for {@code patience} epochs (or its epoch budget is spent) and keeps its best epoch.
 *
 * <p><b>ADS</b> (adaptive dimension selection). Stage s has logits w in R^{d_{s-1}}, one keep/drop decision
 * per dimension. Training: the Gumbel-softmax over {keep, drop} of each dimension, i.e. logistic noise
 * g_j = Gumbel - Gumbel and soft_j = sigmoid((w_j + g_j) / t_g); hard = the k-hot indicator of the top d_s
 * entries of w + g; the mask m = hard + soft - stopgrad(soft) (straight-through Gumbel top-k): the forward
 * pass uses exactly d_s dimensions, the gradient reaches every w_j through the relaxation. Inference: the
 * top d_s of w, no noise. The two-class form per dimension, rather than one softmax over all d_{s-1}
 * dimensions, is what lets every logit learn: with k = d/2, one softmax gives gradient to the few largest
 * logits only (docs/papers.md).
 * The compressed vector is the selected dimensions of the stage input, L2-normalised.
 *
 * <p><b>S-XBM</b> (selectable cross-batch memory). A FIFO queue holds the frozen stage inputs (the
 * higher-dimensional embeddings) of the queries and documents of past batches. For every vector of the
 * current batch, its top-k neighbours in the queue by frozen cosine are selected, and (eq. 7)
 * L_sim = mean over (i, j in topk(i)) of |cos(z_i, z_j) - cos(c_i, c_j)|, z frozen, c compressed
 * (the queue's compressed vectors are recomputed with the current selection, so gradients reach both ends).
 *
 * <p><b>Loss</b> L = L_rank + alpha * L_sim with alpha = 1 and L_rank the pairwise rank loss of eq. 8
 * ({@link AdaptorLosses#pairwiseRank}: sum over y_ij > y_ik of (y_ij - y_ik) log(1 + exp(s_ik - s_ij)), on
 * the batch's 2B documents, s = cosine * rankScale).
 *
 * <p><b>Export</b>: the adapter, then a D x D permutation (a linear layer of 0/1 weights, bias 0) that
 * puts the last stage's dimensions first, then the rest of the previous stage's, and so on, so every
 * stage output is a prefix: one nested model serves all requested dims.
 *
 * <p>Choices where the paper is vague: the adapter as the trainable "backbone" (the paper fine-tunes an
 * encoder; here the encoder is frozen, as in Matryoshka-Adaptor, which the paper compares against); the
 * teacher of S-XBM is the frozen input of the stage before its adapter (the raw embedding when the adapter
 * trains in every stage; otherwise the previous stage's output, so each stage preserves the similarities of
 * the one before); the selection logits start at the z-scored log energy of each input dimension over the
 * corpus (the noiseless top-k at epoch 0 keeps the highest-energy dimensions, where all-zero logits would
 * keep a random subset at each step and start below the prefix) and have their
 * own learning rate, since the adapter's rate would barely move them in a few hundred steps; the Gumbel
 * temperature is 1.
 */
public final class SmecTrainer implements Trainer {

    public static final String METHOD = "smec";

    private final SmecConfig config;

    public SmecTrainer(SmecConfig config) {
        this.config = config;
    }

    @Override
    public String method() {
        return METHOD;
    }

    /** Stage dimensions after D: halving, with every requested dim inserted as a stage of its own. */
    static List<Integer> stages(int inputDim, List<Integer> dims) {
        TreeSet<Integer> requested = new TreeSet<>(dims);
        int min = requested.first();
        List<Integer> out = new ArrayList<>();
        int current = inputDim;
        while (current > min) {
            int next = Math.max(current / 2, min);
            Integer between = requested.lower(current);
            if (between != null && between > next) {
                next = between;
            }
            out.add(next);
            current = next;
        }
        return out;
    }

    @Override
    public TrainedModel train(TrainingData data, TrainingListener listener) {
        Device device = DeviceChoice.parse(config.device()).resolve();
        Engine engine = DjlRuntime.engine();
        int d = data.dim();
        if (config.dims().get(config.dims().size() - 1) > d) {
            throw new IllegalArgumentException("dims exceed the input dimension " + d);
        }
        List<Integer> stages = stages(d, config.dims());
        long started = System.nanoTime();
        Map<Long, Float> gains = TrainerSupport.gains(data);
        TripletSampler sampler =
                new TripletSampler(data, config.hardNegativeFraction(), config.maxTripletsPerEpoch(), config.seed());
        int totalEpochs = stages.size() * config.epochsPerStage();
        List<EpochStats> epochs = new ArrayList<>();
        List<Map<String, Object>> stageReports = new ArrayList<>();
        Map<String, float[]> adapter;
        List<int[]> selections = new ArrayList<>(); // per stage: kept indices into the stage input, ascending
        Map<String, float[]> start = LayerNetwork.startTensors(PcaStart.of(data));
        Selection lastSelection = null; // the last stage's: the report's selection
        try (NDManager base = engine.newBaseManager(device)) {
            if (config.adapterInEveryStage()) {
                // the adapter keeps learning in every stage; each stage's selection is frozen after it
                Map<String, float[]> weights = Map.of();
                int[] kept = null; // indices into D of the previous stage's output (null: all of D)
                int epochBase = 0;
                for (int s = 0; s < stages.size(); s++) {
                    Map<String, float[]> initial = new LinkedHashMap<>(start);
                    initial.putAll(weights);
                    try (LayerNetwork net = new LayerNetwork(
                            base,
                            device,
                            LayerNetwork.residualAdapter(d, config.hidden(d)),
                            config.seed(),
                            LayerNetwork.residualZeroInit(),
                            initial,
                            LayerNetwork.startFrozen())) {
                        float[] startLogits;
                        if (kept == null) {
                            startLogits = initialLogits(d);
                        } else {
                            try (Encoder enc = CpuEncoders.forServing(adapterArtifact(d, weights), d)) {
                                startLogits = initialLogits(kept.length);
                            }
                        }
                        Stage st = runStage(
                                engine,
                                base,
                                s + 1,
                                net,
                                kept,
                                startLogits,
                                data.queries(),
                                data.corpus(),
                                data.validation(),
                                stages.get(s),
                                gains,
                                sampler,
                                listener,
                                totalEpochs,
                                epochBase);
                        selections.add(st.selection);
                        lastSelection = st.result.selection();
                        epochs.addAll(st.result.epochs());
                        stageReports.add(st.report(stages.get(s)));
                        epochBase = st.result
                                .epochs()
                                .get(st.result.epochs().size() - 1)
                                .epoch();
                        weights = st.result.shipped();
                        kept = compose(kept, st.selection);
                    }
                }
                adapter = weights;
            } else {
                // stage 1: adapter + first selection, on the raw vectors
                Stage first;
                try (LayerNetwork net = new LayerNetwork(
                        base,
                        device,
                        LayerNetwork.residualAdapter(d, config.hidden(d)),
                        config.seed(),
                        LayerNetwork.residualZeroInit(),
                        start,
                        LayerNetwork.startFrozen())) {
                    first = runStage(
                            engine,
                            base,
                            1,
                            net,
                            null,
                            initialLogits(d),
                            data.queries(),
                            data.corpus(),
                            data.validation(),
                            stages.get(0),
                            gains,
                            sampler,
                            listener,
                            totalEpochs,
                            0);
                    adapter = first.result.shipped();
                }
                selections.add(first.selection);
                lastSelection = first.result.selection();
                epochs.addAll(first.result.epochs());
                stageReports.add(first.report(stages.get(0)));
                // the adapted corpus is computed once when the corpus is on the heap, else encoded as its rows are read
                // (a batch's rows one at a time, which may round a last bit differently from a whole block)
                try (Encoder enc = CpuEncoders.forServing(adapterArtifact(d, adapter), d)) {
                    VectorSet aQueries = ModelEvaluator.encode(enc, data.queries());
                    VectorRows aCorpus = ModelEvaluator.encode(enc, data.corpus());
                    VectorSet aVal =
                            ModelEvaluator.encode(enc, data.validation().queries());
                    int[] kept = first.selection; // indices into D of the current stage output
                    int epochBase = first.result
                            .epochs()
                            .get(first.result.epochs().size() - 1)
                            .epoch();
                    for (int s = 1; s < stages.size(); s++) {
                        VectorSet zq = columns(aQueries, kept);
                        VectorRows zc = columns(aCorpus, kept);
                        EvalSet val = data.validation().encoded(columns(aVal, kept), zc);
                        Stage st = runStage(
                                engine,
                                base,
                                s + 1,
                                null,
                                null,
                                initialLogits(zc.dim()),
                                zq,
                                zc,
                                val,
                                stages.get(s),
                                gains,
                                sampler,
                                listener,
                                totalEpochs,
                                epochBase);
                        selections.add(st.selection);
                        lastSelection = st.result.selection();
                        epochs.addAll(st.result.epochs());
                        stageReports.add(st.report(stages.get(s)));
                        epochBase = st.result
                                .epochs()
                                .get(st.result.epochs().size() - 1)
                                .epoch();
                        int[] next = new int[st.selection.length];
                        for (int i = 0; i < next.length; i++) {
                            next[i] = kept[st.selection[i]];
                        }
                        kept = next;
                    }
                }
            }
        }
        // nested order: last stage's dims first, then each earlier stage's remaining dims, then the rest of D
        int[] order = nestedOrder(d, selections);
        List<LayerSpec> layers = new ArrayList<>(LayerNetwork.residualAdapter(d, config.hidden(d)));
        layers.add(LayerSpec.linear("select", d, d));
        Map<String, Tensor> tensors =
                new LinkedHashMap<>(adapterArtifact(d, adapter).tensors());
        float[] perm = new float[d * d];
        for (int i = 0; i < d; i++) {
            perm[i * d + order[i]] = 1f;
        }
        tensors.put("select.weight", new Tensor("select.weight", new int[] {d, d}, perm));
        tensors.put("select.bias", new Tensor("select.bias", new int[] {d}, new float[d]));
        Map<String, Object> params = new LinkedHashMap<>(config.asMap());
        params.put("stages", stages);
        params.put("stageReports", stageReports);
        ModelMetadata metadata = new ModelMetadata(
                METHOD,
                d,
                config.dims(),
                ModelMetadata.OUTPUT_EMBEDDING,
                ModelMetadata.NORM_L2,
                1,
                layers,
                Map.of(),
                params,
                Map.of());
        double finalNdcg = (Double) stageReports.get(stageReports.size() - 1).get("bestValidationNdcg");
        int bestEpoch = (Integer) stageReports.get(stageReports.size() - 1).get("bestEpoch");
        TrainingReport report = new TrainingReport(
                METHOD,
                device.toString(),
                params,
                List.copyOf(epochs),
                bestEpoch,
                finalNdcg,
                TrainerSupport.seconds(started),
                lastSelection);
        return new TrainedModel(new ModelArtifact(metadata, tensors), report);
    }

    static int[] nestedOrder(int d, List<int[]> selections) {
        // selections.get(s) indexes the output of stage s-1; map each to indices into D
        List<int[]> absolute = new ArrayList<>();
        int[] kept = null;
        for (int[] sel : selections) {
            int[] abs = new int[sel.length];
            for (int i = 0; i < sel.length; i++) {
                abs[i] = kept == null ? sel[i] : kept[sel[i]];
            }
            absolute.add(abs);
            kept = abs;
        }
        int[] order = new int[d];
        boolean[] used = new boolean[d];
        int n = 0;
        for (int s = absolute.size() - 1; s >= 0; s--) {
            for (int j : absolute.get(s)) {
                if (!used[j]) {
                    used[j] = true;
                    order[n++] = j;
                }
            }
        }
        for (int j = 0; j < d; j++) {
            if (!used[j]) {
                order[n++] = j;
            }
        }
        return order;
    }

    private static ModelArtifact adapterArtifact(int d, Map<String, float[]> adapter) {
        List<LayerSpec> layers = LayerNetwork.residualAdapter(d, adapter.get("adapter.fc1.bias").length);
        Map<String, Tensor> tensors = new LinkedHashMap<>();
        for (LayerSpec layer : layers) {
            layer.requiredTensors()
                    .forEach((name, shape) -> tensors.put(
                            name, new Tensor(name, shape, adapter.get(name).clone())));
        }
        return new ModelArtifact(
                new ModelMetadata(
                        METHOD,
                        d,
                        List.of(d),
                        ModelMetadata.OUTPUT_EMBEDDING,
                        ModelMetadata.NORM_NONE,
                        1,
                        layers,
                        Map.of(),
                        Map.of(),
                        Map.of()),
                tensors);
    }

    static VectorSet columns(VectorSet v, int[] cols) {
        return v.transform(cols.length, columnsFunction(v.dim(), cols));
    }

    /** The given columns of each row (a view when {@code v} is off the heap). */
    static VectorRows columns(VectorRows v, int[] cols) {
        return v.transform(cols.length, columnsFunction(v.dim(), cols));
    }

    private static VectorRows.BlockFunction columnsFunction(int dim, int[] cols) {
        return (rows, count) -> {
            float[] out = new float[count * cols.length];
            for (int i = 0; i < count; i++) {
                for (int j = 0; j < cols.length; j++) {
                    out[i * cols.length + j] = rows[i * dim + cols[j]];
                }
            }
            return out;
        };
    }

    private record Stage(EpochLoop.Result result, int[] selection) {
        Map<String, Object> report(int dim) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("dim", dim);
            m.put("bestEpoch", result.shippedEpoch());
            m.put("bestValidationNdcg", result.shippedNdcg());
            m.put("selection", result.selection().asMap());
            m.put("epochsRun", result.epochs().size() - 1);
            m.put("startValidationNdcg", result.epochs().get(0).validationNdcg());
            return m;
        }
    }

    /**
     * One stage: selection logits over the stage input (dimension {@code queries.dim()}) keeping {@code k}
     * dims; with {@code adapter} (stage 1) the stage input is adapter(raw) and the adapter trains too.
     */
    private Stage runStage(
            Engine engine,
            NDManager base,
            int stage,
            LayerNetwork adapter,
            int[] kept,
            float[] startLogits,
            VectorSet queries,
            VectorRows corpus,
            EvalSet validation,
            int k,
            Map<Long, Float> gains,
            TripletSampler sampler,
            TrainingListener listener,
            int totalEpochs,
            int epochBase) {
        int din = kept == null ? queries.dim() : kept.length;
        NDManager pm = base.newSubManager();
        try {
            NDArray logits = pm.create(startLogits);
            logits.setRequiresGradient(true);
            Map<String, NDArray> selectionParams = Map.of("stage" + stage + ".logits", logits);
            Optimizer adapterOpt = TrainerSupport.adamW(config.learningRate(), config.weightDecay());
            Optimizer selectOpt = TrainerSupport.adamW(config.selectionLearningRate(), 0);
            Random rnd = new Random(config.seed() * 31 + stage);
            Deque<float[]> memory = new ArrayDeque<>();
            EpochLoop.Step<TripletSampler.Triplets> step = (t, start, n) -> {
                try (NDManager m = base.newSubManager()) {
                    int mem = memory.size();
                    int cols = queries.dim();
                    float[] x = new float[(3 * n + mem) * cols];
                    TrainerSupport.gatherTriplets(queries, corpus, t, start, n, x);
                    int r = 3 * n;
                    for (float[] v : memory) {
                        System.arraycopy(v, 0, x, r++ * cols, cols);
                    }
                    NDArray input = m.create(x, new Shape(3L * n + mem, cols));
                    NDArray y = TrainerSupport.batchRelevance(m, t, start, n, gains, corpus.size());
                    float[] noise = new float[din];
                    for (int j = 0; j < din; j++) { // Gumbel(0,1) - Gumbel(0,1) = Logistic(0,1)
                        double u = Math.min(1 - 1e-7, Math.max(1e-7, rnd.nextDouble()));
                        noise[j] = (float) Math.log(u / (1 - u));
                    }
                    double[] out;
                    try (GradientCollector c = GradientSteps.open(engine)) {
                        NDArray stageInput = adapter == null
                                ? input
                                : kept == null
                                        ? adapter.forward(input)
                                        : adapter.forward(input).get(indexer(input, kept));
                        NDArray noisy = logits.add(m.create(noise));
                        NDArray soft = ai.djl.nn.Activation.sigmoid(
                                noisy.mul(constant(noisy, (float) (1 / config.gumbelTemperature()))));
                        NDArray hard = m.create(kHot(noisy.toFloatArray(), k));
                        NDArray mask = hard.add(soft).sub(soft.stopGradient());
                        NDArray compressed = TrainerSupport.normalisedPrefix(stageInput.mul(mask), din);
                        NDArray cq = compressed.get("0:" + n);
                        NDArray cd = compressed.get(n + ":" + 3 * n);
                        NDArray rank = AdaptorLosses.pairwiseRank(
                                cq.matMul(cd.transpose()).mul(constant(cq, (float) config.rankScale())), y);
                        NDArray sim = constant(cq, 0f);
                        if (mem >= config.neighbours()) {
                            NDArray frozen = TrainerSupport.normalisedPrefix(input, cols);
                            NDArray teacher = AdaptorLosses.cosine(frozen.get("0:" + 3 * n), frozen.get(3 * n + ":"));
                            NDArray student =
                                    AdaptorLosses.cosine(compressed.get("0:" + 3 * n), compressed.get(3 * n + ":"));
                            NDArray sel = m.create(
                                    topKMask(teacher.toFloatArray(), 3 * n, mem, config.neighbours()),
                                    new Shape(3L * n, mem));
                            sim = AdaptorLosses.similarityPreservation(student, teacher, sel);
                        }
                        NDArray total = rank.add(sim.mul(constant(cq, (float) config.alpha())));
                        c.backward(total);
                        out = new double[] {total.getFloat(), rank.getFloat(), sim.getFloat()};
                    }
                    if (adapter != null) {
                        TrainerSupport.update(adapterOpt, adapter.trainable());
                    }
                    TrainerSupport.update(selectOpt, selectionParams);
                    // enqueue this batch's frozen stage inputs (FIFO)
                    for (int i = 0; i < 3 * n; i++) {
                        memory.addLast(java.util.Arrays.copyOfRange(x, i * cols, (i + 1) * cols));
                        if (memory.size() > config.memorySize()) {
                            memory.removeFirst();
                        }
                    }
                    return out;
                }
            };
            java.util.function.Supplier<Map<String, float[]>> snapshot = () -> {
                Map<String, float[]> s = adapter == null ? new LinkedHashMap<>() : adapter.snapshot();
                s.put("logits", logits.toFloatArray());
                return s;
            };
            EpochLoop.Validation<Scores> validate = EpochLoop.Validation.ndcg(() -> {
                int[] sel = selection(logits.toFloatArray(), k);
                if (adapter == null) {
                    return TrainerSupport.validate(
                            base, z -> TrainerSupport.normalisedPrefix(z.get(indexer(z, sel)), k), validation);
                }
                int[] cols = compose(kept, sel);
                return TrainerSupport.validate(
                        base,
                        z -> TrainerSupport.normalisedPrefix(adapter.forward(z).get(indexer(z, cols)), k),
                        validation);
            });
            EpochLoop.Plan plan = new EpochLoop.Plan(
                    epochBase,
                    config.epochsPerStage(),
                    config.patience(),
                    config.batchSize(),
                    totalEpochs,
                    List.of("total", "rank", "sxbm"),
                    null);
            EpochLoop.Result result = EpochLoop.run(plan, sampler, listener, step, validate, snapshot);
            return new Stage(result, selection(result.shipped().get("logits"), k));
        } finally {
            pm.close();
        }
    }

    /**
     * Selection logits at the start of a stage: a falling ramp over the stage input's dimensions, z-scored so
     * that its spread (1) is on the scale of the Gumbel noise. The stage input is in PCA order (the adapter
     * starts as the corpus PCA rotation, and each stage keeps its input's order), so the noiseless top-k of a
     * stage starts as the first k principal components: every stage's epoch 0 is PCA at its dimension.
     */
    static float[] initialLogits(int d) {
        float[] out = new float[d];
        double scale = Math.sqrt((d * (double) d - 1) / 12.0);
        for (int j = 0; j < d; j++) {
            out[j] = (float) (((d - 1) / 2.0 - j) / Math.max(scale, 1e-12));
        }
        return out;
    }

    private static ai.djl.ndarray.index.NDIndex indexer(NDArray z, int[] cols) {
        long[] idx = new long[cols.length];
        for (int i = 0; i < cols.length; i++) {
            idx[i] = cols[i];
        }
        return new ai.djl.ndarray.index.NDIndex(":, {}", z.getManager().create(idx));
    }

    /** {@code inner} indexes {@code outer} (null = identity): the composed indices into the original space. */
    static int[] compose(int[] outer, int[] inner) {
        if (outer == null) {
            return inner.clone();
        }
        int[] out = new int[inner.length];
        for (int i = 0; i < inner.length; i++) {
            out[i] = outer[inner[i]];
        }
        return out;
    }

    /** The k largest logits' indices, ascending (ties: lower index first). */
    static int[] selection(float[] logits, int k) {
        boolean[] m = DimensionMasks.topK(logits, k);
        int[] out = new int[k];
        int n = 0;
        for (int j = 0; j < m.length; j++) {
            if (m[j]) {
                out[n++] = j;
            }
        }
        return out;
    }

    private static float[] kHot(float[] scores, int k) {
        boolean[] m = DimensionMasks.topK(scores, k);
        float[] out = new float[m.length];
        for (int j = 0; j < m.length; j++) {
            out[j] = m[j] ? 1f : 0f;
        }
        return out;
    }

    /** [rows, cols] 0/1 mask of each row's top-k columns of {@code sims}. */
    static float[] topKMask(float[] sims, int rows, int cols, int k) {
        float[] mask = new float[rows * cols];
        for (int i = 0; i < rows; i++) {
            boolean[] m = DimensionMasks.topK(java.util.Arrays.copyOfRange(sims, i * cols, (i + 1) * cols), k);
            for (int j = 0; j < cols; j++) {
                mask[i * cols + j] = m[j] ? 1f : 0f;
            }
        }
        return mask;
    }
}
