package dev.compress.plugin.query.mask;

import dev.compress.plugin.inference.LoadedModel;
import dev.compress.plugin.inference.SearchPoolInference;
import dev.compress.training.mask.DimensionMasks;
import dev.compress.training.mask.FeedbackFeatures;
import dev.compress.training.model.ModelMetadata;
import dev.compress.training.trainer.QueryMaskTrainer;
import java.util.Arrays;
import java.util.List;
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

    /** The masks a mask model's validation chooses between. */
    private static final List<MaskType> VALIDATED_MASKS =
            List.of(MaskType.LEARNED, MaskType.NORM, MaskType.DIME_PRF, MaskType.ECLIPSE_PRF);

    private final SearchPoolInference inference;

    @Inject
    public TransportLearnedMaskAction(
            TransportService transportService, ActionFilters actionFilters, SearchPoolInference inference) {
        super(LearnedMaskAction.NAME, transportService, actionFilters, LearnedMaskRequest::new);
        this.inference = inference;
    }

    @Override
    protected void doExecute(Task task, LearnedMaskRequest request, ActionListener<LearnedMaskResponse> listener) {
        inference.apply(request.mask().modelId(), model -> mask(model, request), listener);
    }

    /**
     * The mask to apply: the model's top-scored dimensions at the requested size; with no size, the mask and share
     * the model's training chose on validation (another kind than {@code learned} is returned for the query to
     * resolve, a PRF mask with its first pass). A model reading the query's first-pass feedback
     * ({@link FeedbackFeatures}) answers a request without it with how many top first-pass documents to collect
     * ({@link LearnedMaskResponse#collect}); with no first-pass hit it has nothing to read and every dimension is
     * kept.
     */
    static LearnedMaskResponse mask(LoadedModel model, LearnedMaskRequest request) {
        ModelMetadata metadata = model.metadata();
        if (ModelMetadata.OUTPUT_DIMENSION_SCORES.equals(metadata.output()) == false) {
            throw new IllegalArgumentException("[mask.model_id] model [" + model.id() + "] outputs ["
                    + metadata.output() + "], not [" + ModelMetadata.OUTPUT_DIMENSION_SCORES
                    + "]: it is not a mask model");
        }
        float[] vector = request.vector();
        int dim = vector.length;
        if (metadata.maxOutputDim() != dim) {
            throw new IllegalArgumentException("[mask.model_id] model [" + model.id() + "] masks "
                    + metadata.maxOutputDim() + " dimensions but the query vector has " + dim);
        }
        boolean readsFeedback = FeedbackFeatures.readBy(metadata);
        if (metadata.inputDim() != dim && readsFeedback == false) {
            throw new IllegalArgumentException("[mask.model_id] model [" + model.id() + "] reads "
                    + metadata.inputDim() + " values per query, neither the query's " + dim + " nor the "
                    + FeedbackFeatures.WIDTH * dim + " of the query with its first-pass feedback: train it again");
        }
        int keep;
        if (request.mask().sizeGiven()) {
            keep = request.mask().keep(dim);
        } else {
            double ratio = validatedRatio(model);
            MaskType type = validatedMask(model);
            if (type != MaskType.LEARNED) {
                // handed back for the query to resolve as it resolves any mask of that kind
                return LearnedMaskResponse.of(MaskSpec.ofShare(type, ratio));
            }
            keep = DimensionMasks.keep(dim, ratio);
        }
        if (readsFeedback == false) {
            return LearnedMaskResponse.of(MaskSpec.explicit(DimensionMasks.learned(model.encoder(), vector, keep)));
        }
        if (keep >= dim) {
            // every dimension kept: no first pass needed to rank them
            return LearnedMaskResponse.of(MaskSpec.explicit(FeedbackMask.allKept(dim)));
        }
        float[][] feedback = request.feedback();
        if (feedback == null) {
            return LearnedMaskResponse.collect(feedbackDocs(model));
        }
        if (feedback.length == 0) {
            return LearnedMaskResponse.of(MaskSpec.explicit(FeedbackMask.allKept(dim)));
        }
        float[] input = FeedbackFeatures.of(vector, feedback);
        return LearnedMaskResponse.of(MaskSpec.explicit(DimensionMasks.learned(model.encoder(), input, keep)));
    }

    /** How many top documents of the first pass the model's training read its feedback from. */
    private static int feedbackDocs(LoadedModel model) {
        String name = QueryMaskTrainer.FEEDBACK_DOCS;
        Object docs = model.metadata().trainingParameters().get(name);
        if (docs instanceof Number n && n.intValue() >= 1 && n.intValue() <= MaskSpec.MAX_DEPTH) {
            return n.intValue();
        }
        throw new IllegalArgumentException("[mask.model_id] model [" + model.id()
                + "] reads first-pass feedback but its training parameter [" + name + "] is [" + docs
                + "], not a number of documents in [1, " + MaskSpec.MAX_DEPTH + "]");
    }

    /** The mask the model's validation chose: its own scores ({@code learned}) or a judgment-free mask. */
    private static MaskType validatedMask(LoadedModel model) {
        Object name = model.metadata().trainingParameters().get(QueryMaskTrainer.VALIDATED_MASK);
        if (name == null) {
            return MaskType.LEARNED;
        }
        MaskType type = Arrays.stream(MaskType.values())
                .filter(t -> t.jsonName().equals(name))
                .findFirst()
                .orElse(null);
        if (VALIDATED_MASKS.contains(type) == false) {
            throw new IllegalArgumentException("[mask.model_id] model [" + model.id() + "] names the validated mask ["
                    + name + "], which validation never chooses (it chooses one of "
                    + VALIDATED_MASKS.stream().map(MaskType::jsonName).toList() + "): train it again");
        }
        return type;
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
