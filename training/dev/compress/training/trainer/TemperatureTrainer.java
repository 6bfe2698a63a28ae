package dev.compress.training.trainer;

import static dev.compress.training.inference.DjlLayers.constant;

import ai.djl.Device;
import ai.djl.ndarray.NDArray;
import dev.compress.training.data.EvalSet;
import dev.compress.training.data.VectorRows;
import dev.compress.training.data.VectorSet;
import dev.compress.training.engine.DeviceChoice;
import dev.compress.training.eval.Encoding;
import dev.compress.training.eval.ModelEvaluator;
import dev.compress.training.eval.RetrievalEvaluator;
import dev.compress.training.eval.Scores;
import dev.compress.training.inference.CpuEncoders;
import dev.compress.training.inference.Encoder;
import dev.compress.training.model.ModelArtifact;
import dev.compress.training.model.ModelMetadata;
import dev.compress.training.sampling.TrainingData;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Temperature-aggregated (Matryoshka) contrastive training (<a href="https://openreview.net/forum?id=szRmEM8Kx5">Effective Post-Training Embedding Compression via Temperature Control
 * in Contrastive Training</a>, Dinu et al., ICLR 2025) of a residual adapter
 * f(e) = P e + MLP(e) on frozen embeddings, P the corpus PCA rotation, so that epoch 0 is PCA (the paper trains
 * the embedding model itself; network, batches, weight average and selection: {@link ResidualAdapterTraining}).
 * <pre>
 *   InfoNCE(m, tau) = mean_i -log( exp(cos(f(q_i)[:m], f(p_i)[:m]) / tau)
 *                                  / sum_{j in pool} exp(cos(f(q_i)[:m], f(d_j)[:m]) / tau) )
 *   TempAgg     L = sum_{tau in T} InfoNCE(D, tau)
 *   TempAggMRL  L = sum_{m in M} sum_{tau in T} InfoNCE(m, tau)
 *   TempSpecMRL L = sum_{m in M} InfoNCE(m, tau_m)
 * </pre>
 * with T = {0.03, 0.06, 0.1}, M = the served dims and D, the pool = the batch's positives and hard /
 * random negatives (2B documents; documents judged relevant to query i other than its own positive are
 * left out of its denominator).
 *
 * <p>Choices where the paper is vague: TempSpecMRL's per-dim temperature goes from max(T) at the smallest
 * dim to min(T) at D, log-linearly in log(dim) between (a small prefix scores coarsely, so a softer
 * distribution; the full vector the sharpest); the epoch kept has the best mean validation nDCG@10 over
 * the served dims, measured on a moving average of the weights, which is also what ships. The report
 * (training parameters) records, on the validation queries: nDCG@10 per served dim as float and as sign
 * bits (Hamming), the retention after truncation (dim m / D) and after binarisation (bits / float at the
 * same dim), and the intrinsic dimensionality (PCA components for 95% of the variance) of the adapted and
 * of the frozen corpus vectors.
 */
public final class TemperatureTrainer implements Trainer {

    public static final String METHOD = "temperature_mrl";

    private final TemperatureConfig config;

    public TemperatureTrainer(TemperatureConfig config) {
        this.config = config;
    }

    @Override
    public String method() {
        return METHOD;
    }

    /** Per-dim temperature of TempSpecMRL for the nested dims {@code dims} (ascending, last = D). */
    static double[] specificTemperatures(List<Integer> dims, List<Double> temperatures) {
        double hi = temperatures.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
        double lo = temperatures.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
        double[] t = new double[dims.size()];
        double a = Math.log(dims.get(0));
        double b = Math.log(dims.get(dims.size() - 1));
        for (int i = 0; i < t.length; i++) {
            double f = b == a ? 1 : (Math.log(dims.get(i)) - a) / (b - a);
            t[i] = Math.exp(Math.log(hi) + f * (Math.log(lo) - Math.log(hi)));
        }
        return t;
    }

    @Override
    public TrainedModel train(TrainingData data, TrainingListener listener) {
        Device device = DeviceChoice.parse(config.device()).resolve();
        int d = data.dim();
        if (config.dims().get(config.dims().size() - 1) > d) {
            throw new IllegalArgumentException("dims exceed the input dimension " + d);
        }
        TreeSet<Integer> nested = new TreeSet<>(config.dims());
        nested.add(d);
        List<Integer> lossDims =
                config.variant() == TemperatureConfig.Variant.TEMP_AGG ? List.of(d) : new ArrayList<>(nested);
        double[] specific = specificTemperatures(lossDims, config.temperatures());
        long started = System.nanoTime();
        ResidualAdapterTraining.Outcome o = ResidualAdapterTraining.run(
                data,
                listener,
                config,
                device,
                List.of("total", "infonce", "recovery"),
                (adapted, input, start, relevance, n) -> loss(adapted, start, relevance, n, lossDims, specific));
        EpochLoop.Result r = o.result();
        Map<String, Object> params = new LinkedHashMap<>(config.asMap());
        if (config.variant() == TemperatureConfig.Variant.TEMP_SPEC_MRL) {
            Map<String, Double> perDim = new LinkedHashMap<>();
            for (int i = 0; i < lossDims.size(); i++) {
                perDim.put(Integer.toString(lossDims.get(i)), specific[i]);
            }
            params.put("temperaturePerDim", perDim);
        }
        ModelMetadata full = new ModelMetadata(
                METHOD,
                d,
                new ArrayList<>(nested),
                ModelMetadata.OUTPUT_EMBEDDING,
                ModelMetadata.NORM_L2,
                1,
                o.layers(),
                Map.of(),
                params,
                Map.of());
        ModelArtifact fullModel = new ModelArtifact(full, o.tensors());
        params.put("retention", retention(fullModel, data, d));
        ModelMetadata metadata = new ModelMetadata(
                METHOD,
                d,
                config.dims(),
                ModelMetadata.OUTPUT_EMBEDDING,
                ModelMetadata.NORM_L2,
                1,
                o.layers(),
                Map.of(),
                params,
                Map.of());
        ModelArtifact artifact = new ModelArtifact(metadata, fullModel.tensors());
        TrainingReport report = new TrainingReport(
                METHOD,
                device.toString(),
                params,
                r.epochs(),
                r.shippedEpoch(),
                r.shippedNdcg(),
                TrainerSupport.seconds(started),
                r.selection());
        return new TrainedModel(artifact, report);
    }

    /** {total, infonce, recovery} of the variant's InfoNCE terms over the loss dims and the L1 pull toward the start. */
    private NDArray[] loss(
            NDArray adapted, NDArray start, NDArray relevance, int n, List<Integer> lossDims, double[] specific) {
        NDArray falseNeg = AdaptorLosses.falseNegativeMask(relevance);
        NDArray nce = null;
        for (int i = 0; i < lossDims.size(); i++) {
            NDArray z = TrainerSupport.normalisedPrefix(adapted, lossDims.get(i));
            NDArray q = z.get("0:" + n);
            NDArray docs = z.get(n + ":" + 3 * n);
            List<Double> taus = config.variant() == TemperatureConfig.Variant.TEMP_SPEC_MRL
                    ? List.of(specific[i])
                    : config.temperatures();
            for (double tau : taus) {
                NDArray l = AdaptorLosses.infoNce(q, docs, falseNeg, (float) tau);
                nce = nce == null ? l : nce.add(l);
            }
        }
        NDArray rec = AdaptorLosses.l1Recovery(adapted, start);
        NDArray total =
                config.recoveryWeight() > 0 ? nce.add(rec.mul(constant(nce, (float) config.recoveryWeight()))) : nce;
        return new NDArray[] {total, nce, rec};
    }

    /** Validation-set retention after truncation and binarisation, and intrinsic dimensionality. */
    private Map<String, Object> retention(ModelArtifact model, TrainingData data, int d) {
        EvalSet val = data.validation();
        RetrievalEvaluator ev = RetrievalEvaluator.standard();
        Map<String, Object> out = new LinkedHashMap<>();
        // a corpus off the heap stays a view: encoded again by each scan below instead of held whole
        try (Encoder enc = CpuEncoders.forServing(model, d)) {
            VectorSet q = ModelEvaluator.encode(enc, val.queries());
            VectorRows c = ModelEvaluator.encode(enc, val.corpus());
            double fullFloat = ev.evaluate(val.encoded(q, c), Encoding.FLOAT).ndcg();
            List<Map<String, Object>> rows = new ArrayList<>();
            for (int m : model.metadata().outputDims()) {
                EvalSet s = val.encoded(TrainerSupport.prefix(q, m), TrainerSupport.prefix(c, m));
                Map<Encoding, Scores> scores = ev.evaluate(s, EnumSet.of(Encoding.FLOAT, Encoding.BINARY));
                double f = scores.get(Encoding.FLOAT).ndcg();
                double b = scores.get(Encoding.BINARY).ndcg();
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("dims", m);
                row.put("validationNdcgFloat", f);
                row.put("validationNdcgBinary", b);
                row.put("retentionTruncation", f / fullFloat);
                row.put("retentionBinarisation", b / f);
                rows.add(row);
            }
            out.put("perDim", rows);
            out.put("intrinsicDimension95Adapted", PcaTrainer.intrinsicDimension(c, 0.95));
        }
        out.put("intrinsicDimension95Frozen", PcaTrainer.intrinsicDimension(data, 0.95));
        return out;
    }
}
