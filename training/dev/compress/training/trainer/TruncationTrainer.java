package dev.compress.training.trainer;

import dev.compress.training.model.ModelArtifact;
import dev.compress.training.model.ModelMetadata;
import dev.compress.training.sampling.TrainingData;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Plain truncation baseline: the first d input dimensions, re-normalised (what Matryoshka models are
 * meant for; a non-Matryoshka model such as bge-small loses much). Nothing is learned: the model is an
 * empty layer stack whose output dims are the requested prefixes.
 */
public final class TruncationTrainer implements Trainer {

    public static final String METHOD = "truncation";

    private final List<Integer> dims;

    public TruncationTrainer(List<Integer> dims) {
        this.dims = dims.stream().sorted().toList();
    }

    @Override
    public String method() {
        return METHOD;
    }

    @Override
    public TrainedModel train(TrainingData data, TrainingListener listener) {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("dims", dims);
        ModelMetadata metadata = new ModelMetadata(
                METHOD,
                data.dim(),
                dims,
                ModelMetadata.OUTPUT_EMBEDDING,
                ModelMetadata.NORM_L2,
                1,
                List.of(),
                Map.of(),
                params,
                Map.of());
        EpochStats none = new EpochStats(1, Map.of(), null, null, 0, 0);
        listener.onEpoch(none, 1);
        return new TrainedModel(
                new ModelArtifact(metadata, Map.of()),
                new TrainingReport(METHOD, "none", params, List.of(none), 1, null, 0, null));
    }
}
