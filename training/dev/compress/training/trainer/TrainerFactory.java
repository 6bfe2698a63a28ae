package dev.compress.training.trainer;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Builds the trainer of a method from user-facing parameters (the {@code _train} API's
 * {@code parameters} object). Defaults follow the papers; see each config's doc comment.
 */
public final class TrainerFactory {

    public static final List<String> METHODS = List.of(
            DiveTrainer.METHOD,
            AdaptorTrainer.MATRYOSHKA,
            AdaptorTrainer.SEARCH,
            SmecTrainer.METHOD,
            TemperatureTrainer.METHOD,
            PcaTrainer.METHOD,
            TruncationTrainer.METHOD,
            QueryMaskTrainer.METHOD);
    public static final int MAX_EPOCHS = 1000;

    private TrainerFactory() {}

    /**
     * @param dims target dimensions, ascending; methods that train one output size take exactly one;
     *             the mask predictor takes none (it scores every input dimension)
     * @throws IllegalArgumentException naming the method, dimension or parameter that is wrong
     */
    public static Trainer create(
            String method, List<Integer> dims, Map<String, Object> parameters, long seed, String device) {
        boolean maskPredictor = QueryMaskTrainer.METHOD.equals(method);
        if (maskPredictor && dims.isEmpty() == false) {
            throw new IllegalArgumentException(
                    "[dimensions] does not apply to method [query_mask] (it scores every input dimension), got "
                            + dims);
        }
        if (maskPredictor == false && dims.isEmpty()) {
            throw new IllegalArgumentException("[dimensions] needs at least one target dimension");
        }
        TrainingParameters p = new TrainingParameters(parameters);
        Trainer trainer = switch (method) {
            case DiveTrainer.METHOD -> {
                if (dims.size() != 1) {
                    throw new IllegalArgumentException(
                            "method [dive] trains one output dimension per model, got [dimensions] " + dims);
                }
                yield new DiveTrainer(diveConfig(p, dims.get(0), seed, device));
            }
            case AdaptorTrainer.MATRYOSHKA ->
                new AdaptorTrainer(adaptorConfig(p, AdaptorConfig.matryoshkaAdaptor(dims), seed, device));
            case AdaptorTrainer.SEARCH ->
                new AdaptorTrainer(adaptorConfig(p, AdaptorConfig.searchAdaptor(dims), seed, device));
            case SmecTrainer.METHOD -> new SmecTrainer(smecConfig(p, SmecConfig.defaults(dims), seed, device));
            case TemperatureTrainer.METHOD ->
                new TemperatureTrainer(temperatureConfig(p, TemperatureConfig.defaults(dims), seed, device));
            case PcaTrainer.METHOD ->
                new PcaTrainer(
                        dims,
                        p.choice("centred", "false", Set.of("true", "false")).equals("true"));
            case TruncationTrainer.METHOD -> new TruncationTrainer(dims);
            case QueryMaskTrainer.METHOD ->
                new QueryMaskTrainer(queryMaskConfig(p, QueryMaskConfig.paper(0.3), seed, device));
            default ->
                throw new IllegalArgumentException("[method] must be one of " + METHODS + ", got [" + method + "]");
        };
        p.rejectUnknown(method);
        return trainer;
    }

    private static DiveConfig diveConfig(TrainingParameters p, int dims, long seed, String device) {
        String recipe = p.choice("recipe", "regularised", Set.of("regularised", "paper"));
        DiveConfig base = recipe.equals("paper") ? DiveConfig.paper(dims) : DiveConfig.regularised(dims);
        return new DiveConfig(
                dims,
                p.integer("heads", base.heads(), 1, 16),
                p.real("margin", base.margin(), 0.0, 2.0),
                p.real("lambda", base.lambda(), 0.0, 10.0),
                p.real("tau", base.tau(), 1e-3, 1.0),
                p.real("learning_rate", base.learningRate(), 1e-7, 1.0),
                p.real("weight_decay", base.weightDecay(), 0.0, 1.0),
                p.integer("batch_size", base.batchSize(), 2, 8192),
                p.integer("epochs", base.epochs(), 1, MAX_EPOCHS),
                p.integer("patience", base.patience(), 0, MAX_EPOCHS),
                base.hidden1(),
                base.hidden2(),
                p.real("hard_negative_fraction", base.hardNegativeFraction(), 0.0, 1.0),
                p.integer("hard_negatives_per_query", base.hardNegativesPerQuery(), 1, 10_000),
                p.integer("max_triplets_per_epoch", base.maxTripletsPerEpoch(), 0, Integer.MAX_VALUE),
                p.real("preserve_weight", base.preserveWeight(), 0.0, 100.0),
                p.real("preserve_temperature", base.preserveTemperature(), 1e-3, 10.0),
                p.choice(
                                "margin_scale",
                                base.scaledMargin() ? "score_gap" : "absolute",
                                Set.of("score_gap", "absolute"))
                        .equals("score_gap"),
                seed,
                device);
    }

    /** {@code tau} pins the softmax temperature; without it the paper's validation grid chooses. */
    private static QueryMaskConfig queryMaskConfig(
            TrainingParameters p, QueryMaskConfig base, long seed, String device) {
        double tau = p.real("tau", Double.NaN, 1e-5, 10.0);
        return new QueryMaskConfig(
                p.real("ratio", base.ratio(), 1e-3, 1.0),
                Double.isNaN(tau) ? base.taus() : List.of(tau),
                p.integer("negatives_sampled", base.negativesSampled(), 1, 10_000),
                p.integer("negative_pool", base.negativePool(), 1, 100_000),
                p.real("dropout", base.dropout(), 0.0, 0.9),
                p.real("learning_rate", base.learningRate(), 1e-7, 1.0),
                p.real("weight_decay", base.weightDecay(), 0.0, 1.0),
                p.integer("batch_size", base.batchSize(), 1, 8192),
                p.integer("epochs", base.epochs(), 1, MAX_EPOCHS),
                seed,
                device,
                p.integer("folds", base.folds(), 2, 20));
    }

    private static AdaptorConfig adaptorConfig(TrainingParameters p, AdaptorConfig base, long seed, String device) {
        return new AdaptorConfig(
                base.dims(),
                base.nested(),
                base.hidden(),
                base.rankScale(),
                p.real("recovery_weight", base.recoveryWeight(), 0.0, 100.0),
                p.real("pair_weight", base.pairWeight(), 0.0, 100.0),
                p.real("learning_rate", base.learningRate(), 1e-7, 1.0),
                p.real("weight_decay", base.weightDecay(), 0.0, 1.0),
                p.integer("batch_size", base.batchSize(), 2, 8192),
                p.integer("epochs", base.epochs(), 1, MAX_EPOCHS),
                p.integer("patience", base.patience(), 0, MAX_EPOCHS),
                p.real("hard_negative_fraction", base.hardNegativeFraction(), 0.0, 1.0),
                p.integer("max_triplets_per_epoch", base.maxTripletsPerEpoch(), 0, Integer.MAX_VALUE),
                seed,
                device);
    }

    private static SmecConfig smecConfig(TrainingParameters p, SmecConfig base, long seed, String device) {
        int memorySize = p.integer("memory_size", base.memorySize(), 1, 1_000_000);
        int neighbours = p.integer("neighbours", base.neighbours(), 1, 1000);
        if (memorySize < neighbours) {
            throw new IllegalArgumentException("[parameters.memory_size] must be at least [parameters.neighbours] ("
                    + neighbours + "), got [" + memorySize + "]");
        }
        return new SmecConfig(
                base.dims(),
                base.hidden(),
                p.real("alpha", base.alpha(), 0.0, 100.0),
                base.rankScale(),
                p.real("gumbel_temperature", base.gumbelTemperature(), 1e-3, 10.0),
                p.real("learning_rate", base.learningRate(), 1e-7, 1.0),
                p.real("selection_learning_rate", base.selectionLearningRate(), 1e-7, 1.0),
                p.real("weight_decay", base.weightDecay(), 0.0, 1.0),
                p.integer("batch_size", base.batchSize(), 2, 8192),
                p.integer("epochs_per_stage", base.epochsPerStage(), 1, MAX_EPOCHS),
                p.integer("patience", base.patience(), 0, MAX_EPOCHS),
                memorySize,
                neighbours,
                p.real("hard_negative_fraction", base.hardNegativeFraction(), 0.0, 1.0),
                p.integer("max_triplets_per_epoch", base.maxTripletsPerEpoch(), 0, Integer.MAX_VALUE),
                p.choice("adapter_in_every_stage", String.valueOf(base.adapterInEveryStage()), Set.of("true", "false"))
                        .equals("true"),
                seed,
                device);
    }

    private static TemperatureConfig temperatureConfig(
            TrainingParameters p, TemperatureConfig base, long seed, String device) {
        String variant = p.choice(
                "variant",
                base.variant().name().toLowerCase(java.util.Locale.ROOT),
                Set.of("temp_agg", "temp_agg_mrl", "temp_spec_mrl"));
        return new TemperatureConfig(
                base.dims(),
                TemperatureConfig.Variant.valueOf(variant.toUpperCase(java.util.Locale.ROOT)),
                base.temperatures(),
                base.hidden(),
                p.real("recovery_weight", base.recoveryWeight(), 0.0, 100.0),
                p.real("learning_rate", base.learningRate(), 1e-7, 1.0),
                p.real("weight_decay", base.weightDecay(), 0.0, 1.0),
                p.integer("batch_size", base.batchSize(), 2, 8192),
                p.integer("epochs", base.epochs(), 1, MAX_EPOCHS),
                p.integer("patience", base.patience(), 0, MAX_EPOCHS),
                p.real("hard_negative_fraction", base.hardNegativeFraction(), 0.0, 1.0),
                p.integer("max_triplets_per_epoch", base.maxTripletsPerEpoch(), 0, Integer.MAX_VALUE),
                seed,
                device);
    }
}
