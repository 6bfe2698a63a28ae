package dev.compress.plugin.query.mask;

import dev.compress.plugin.inference.LoadedModel;
import dev.compress.plugin.inference.SearchPoolInference;
import dev.compress.training.mask.DimensionMasks;
import dev.compress.training.model.ModelMetadata;
import dev.compress.training.trainer.QueryMaskTrainer;
import org.opensearch.action.support.ActionFilters;
import org.opensearch.action.support.HandledTransportAction;
import org.opensearch.common.inject.Inject;
import org.opensearch.core.action.ActionListener;
import org.opensearch.tasks.Task;
import org.opensearch.transport.TransportService;

/**
 * Scores the query's dimensions with this node's cached mask model, on a search thread ({@link SearchPoolInference}),
 * and keeps the top ones; errors name [mask.model_id].
 */
public final class TransportLearnedMaskAction extends HandledTransportAction<LearnedMaskRequest, LearnedMaskResponse> {

    private final SearchPoolInference inference;

    @Inject
    public TransportLearnedMaskAction(
            TransportService transportService, ActionFilters actionFilters, SearchPoolInference inference) {
        super(LearnedMaskAction.NAME, transportService, actionFilters, LearnedMaskRequest::new);
        this.inference = inference;
    }

    @Override
    protected void doExecute(Task task, LearnedMaskRequest request, ActionListener<LearnedMaskResponse> listener) {
        inference.apply(request.mask().modelId(), model -> new LearnedMaskResponse(mask(model, request)), listener);
    }

    /**
     * The mask to apply: the model's top-scored dimensions at the requested size; with no size, the mask and share
     * the model's training chose on validation (another kind than {@code learned} is returned for the query to
     * resolve, a PRF mask with its first pass).
     */
    static MaskSpec mask(LoadedModel model, LearnedMaskRequest request) {
        if (ModelMetadata.OUTPUT_DIMENSION_SCORES.equals(model.metadata().output()) == false) {
            throw new IllegalArgumentException("[mask.model_id] model [" + model.id() + "] outputs ["
                    + model.metadata().output() + "], not [" + ModelMetadata.OUTPUT_DIMENSION_SCORES
                    + "]: it is not a mask model");
        }
        float[] vector = request.vector();
        int dim = vector.length;
        if (model.inputDim() != dim) {
            throw new IllegalArgumentException("[mask.model_id] model [" + model.id() + "] masks " + model.inputDim()
                    + " dimensions but the query vector has " + dim);
        }
        if (request.mask().sizeGiven()) {
            return MaskSpec.explicit(DimensionMasks.learned(
                    model.encoder(), vector, request.mask().keep(dim)));
        }
        double ratio = validatedRatio(model);
        Object validatedMask = model.metadata().trainingParameters().get(QueryMaskTrainer.VALIDATED_MASK);
        MaskType type = validatedMask == null ? MaskType.LEARNED : MaskType.fromJson(validatedMask.toString());
        return switch (type) {
            case LEARNED ->
                MaskSpec.explicit(DimensionMasks.learned(model.encoder(), vector, DimensionMasks.keep(dim, ratio)));
            // handed back for the query to resolve as it resolves any mask of that kind
            case NORM, DIME_PRF, ECLIPSE_PRF -> MaskSpec.ofShare(type, ratio);
            default ->
                throw new IllegalStateException("model [" + model.id() + "] names mask [" + validatedMask
                        + "], which validation never chooses");
        };
    }

    /** The share of dimensions the model's training chose on validation (1 = the whole query: no mask). */
    private static double validatedRatio(LoadedModel model) {
        Object r = model.metadata().trainingParameters().get(QueryMaskTrainer.VALIDATED_RATIO);
        if (r instanceof Number n) {
            return n.doubleValue();
        }
        throw new IllegalArgumentException("[mask] model [" + model.id()
                + "] was trained before ratios were validated: give [mask.ratio] or [mask.dimensions]");
    }
}
