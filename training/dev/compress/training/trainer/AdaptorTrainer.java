package dev.compress.training.trainer;

import static dev.compress.training.inference.DjlLayers.constant;

import ai.djl.Device;
import ai.djl.ndarray.NDArray;
import dev.compress.training.engine.DeviceChoice;
import dev.compress.training.model.ModelArtifact;
import dev.compress.training.model.ModelMetadata;
import dev.compress.training.sampling.TrainingData;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Residual adaptors on frozen embeddings: Matryoshka-Adaptor (<a href="https://aclanthology.org/2024.emnlp-main.576/">Matryoshka-Adaptor: Unsupervised and Supervised Tuning for Smaller Embedding Dimensions</a>, Yoon et al., EMNLP 2024; the DIVE paper's appendix F and SMEC's baseline;
 * Yoon et al. 2024) and Search-Adaptor (<a href="https://arxiv.org/abs/2310.08750">Search-Adaptor: Embedding Customization for
 * Information Retrieval</a>, Yoon et al., ACL 2024).
 *
 * <p>Network: f(e) = P e + W2 relu(W1 e + b1) + b2 with P the corpus PCA rotation ({@link PcaStart}, fixed)
 * and W2, b2 = 0 at the start, so training starts where PCA is (epoch 0 = PCA at every served dimension);
 * network, batches, weight average and selection are {@link ResidualAdapterTraining}'s.
 * The papers start at the identity, i.e. plain truncation, which ends below PCA on unseen queries. The
 * exported layer stack is fc1, relu, fc2, linear_skip; a d-dimensional output is the first d values of
 * f(e), L2-normalised.
 *
 * <p>Loss, per batch of B triplets (q_i, p_i, n_i) whose 2B documents are every query's candidates:
 * <pre>
 *   L = sum_{m in M} L_rank(m) + beta * sum_{m in M} L_pair(m) + alpha * L_rec
 *   L_rank(m) = sum_i sum_{j,k: y_ij > y_ik} (y_ij - y_ik) log(1 + exp(s_ik(m) - s_ij(m))) / sum (y_ij - y_ik)
 *   s_ij(m)   = c * cos(f(q_i)[:m], f(d_j)[:m])
 *   L_pair(m) = mean_{a,b in batch} |cos(e_a, e_b) - cos(f(e_a)[:m], f(e_b)[:m])|
 *   L_rec     = mean_a ||f(e_a) - P e_a||_1
 * </pre>
 * Matryoshka-Adaptor: M = dims + {D} and beta > 0; Search-Adaptor: M = {D}, beta = 0 (its paper has
 * no nested dimensions; the served dims are then plain prefixes of its output).
 *
 * <p>Choices where the papers are vague: (1) y is the gain 2^rating - 1 (binary judgments: 1), and
 * in-batch documents judged relevant to a query count as relevant, others as 0; (2) the cosine is scaled
 * by c = {@link AdaptorConfig#rankScale()} (default 20, i.e. a temperature of 0.05): with unit-norm
 * scores the differences stay within [-2, 2] where log(1 + exp(.)) is nearly linear and the loss barely
 * separates pairs; (3) losses are normalised means rather than sums, so weights do not depend on batch
 * size; (4) Matryoshka-Adaptor's top-k similarity term is subsumed by the pairwise term over the batch
 * (the batch's hard negatives are the query's nearest documents); (5) the epoch kept is the one with the
 * best mean validation nDCG@10 over the served dims (early stopping with patience); (6) validation and the
 * shipped model use a moving average of the weights ({@link WeightAverage}), not the last step's.
 */
public final class AdaptorTrainer implements Trainer {

    public static final String MATRYOSHKA = "matryoshka_adaptor";
    public static final String SEARCH = "search_adaptor";

    private final AdaptorConfig config;

    public AdaptorTrainer(AdaptorConfig config) {
        this.config = config;
    }

    @Override
    public String method() {
        return config.nested() ? MATRYOSHKA : SEARCH;
    }

    @Override
    public TrainedModel train(TrainingData data, TrainingListener listener) {
        Device device = DeviceChoice.parse(config.device()).resolve();
        int d = data.dim();
        for (int m : config.dims()) {
            if (m > d) {
                throw new IllegalArgumentException("dims " + m + " exceed the input dimension " + d);
            }
        }
        List<Integer> lossDims =
                config.nested() ? new ArrayList<>(new TreeSet<>(concat(config.dims(), d))) : List.of(d);
        long started = System.nanoTime();
        ResidualAdapterTraining.Outcome o = ResidualAdapterTraining.run(
                data,
                listener,
                config,
                device,
                List.of("total", "rank", "pair", "recovery"),
                (adapted, input, start, relevance, n) -> loss(adapted, input, start, relevance, n, lossDims));
        EpochLoop.Result r = o.result();
        ModelMetadata metadata = new ModelMetadata(
                method(),
                d,
                config.dims(),
                ModelMetadata.OUTPUT_EMBEDDING,
                ModelMetadata.NORM_L2,
                1,
                o.layers(),
                Map.of(),
                config.asMap(),
                Map.of());
        ModelArtifact artifact = new ModelArtifact(metadata, o.tensors());
        TrainingReport report = new TrainingReport(
                method(),
                device.toString(),
                config.asMap(),
                r.epochs(),
                r.shippedEpoch(),
                r.shippedNdcg(),
                TrainerSupport.seconds(started),
                r.selection());
        return new TrainedModel(artifact, report);
    }

    /** {total, rank, pair, recovery} for adapted rows {@code out} = f(input), input rows [q; p; n], {@code start} = P input. */
    private NDArray[] loss(
            NDArray out, NDArray input, NDArray start, NDArray relevance, int n, List<Integer> lossDims) {
        NDArray rank = null;
        NDArray pair = null;
        NDArray teacher = null;
        NDArray ones = null;
        if (config.pairWeight() > 0) {
            NDArray e = TrainerSupport.normalisedPrefix(
                    input, (int) input.getShape().get(1));
            teacher = AdaptorLosses.cosine(e, e);
            ones = teacher.onesLike();
        }
        for (int m : lossDims) {
            NDArray z = TrainerSupport.normalisedPrefix(out, m);
            NDArray q = z.get("0:" + n);
            NDArray docs = z.get(n + ":" + 3 * n);
            NDArray scores = q.matMul(docs.transpose()).mul(constant(out, (float) config.rankScale()));
            NDArray r = AdaptorLosses.pairwiseRank(scores, relevance);
            rank = rank == null ? r : rank.add(r);
            if (teacher != null) {
                NDArray p = AdaptorLosses.similarityPreservation(AdaptorLosses.cosine(z, z), teacher, ones);
                pair = pair == null ? p : pair.add(p);
            }
        }
        if (pair == null) {
            pair = constant(out, 0f);
        }
        NDArray rec = AdaptorLosses.l1Recovery(out, start);
        NDArray total = rank.add(pair.mul(constant(out, (float) config.pairWeight())))
                .add(rec.mul(constant(out, (float) config.recoveryWeight())));
        return new NDArray[] {total, rank, pair, rec};
    }

    private static List<Integer> concat(List<Integer> a, int b) {
        List<Integer> l = new ArrayList<>(a);
        l.add(b);
        return l;
    }
}
