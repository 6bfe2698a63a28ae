package dev.compress.plugin.query;

import dev.compress.plugin.inference.LoadedModel;
import dev.compress.plugin.inference.SearchPoolInference;
import dev.compress.plugin.mapper.VectorSimilarity;
import org.opensearch.action.support.ActionFilters;
import org.opensearch.action.support.HandledTransportAction;
import org.opensearch.common.inject.Inject;
import org.opensearch.core.action.ActionListener;
import org.opensearch.tasks.Task;
import org.opensearch.transport.TransportService;

/**
 * Adapts one query vector with this node's cached model, on a search thread ({@link SearchPoolInference}): errors
 * name the model and both dimensions.
 */
public final class TransportAdaptQueryVectorAction
        extends HandledTransportAction<AdaptQueryVectorRequest, AdaptQueryVectorResponse> {

    private final SearchPoolInference inference;

    @Inject
    public TransportAdaptQueryVectorAction(
            TransportService transportService, ActionFilters actionFilters, SearchPoolInference inference) {
        super(AdaptQueryVectorAction.NAME, transportService, actionFilters, AdaptQueryVectorRequest::new);
        this.inference = inference;
    }

    @Override
    protected void doExecute(
            Task task, AdaptQueryVectorRequest request, ActionListener<AdaptQueryVectorResponse> listener) {
        inference.apply(request.modelId(), model -> new AdaptQueryVectorResponse(adapt(model, request)), listener);
    }

    private static float[] adapt(LoadedModel model, AdaptQueryVectorRequest request) {
        model.requireEmbeddingOutput();
        int outputDim = model.outputDim(request.dimension());
        if (request.vector().length != model.inputDim()) {
            throw new IllegalArgumentException(
                    "[" + CompressedKnnQueryBuilder.NAME + "] [vector] has " + request.vector().length
                            + " dimensions but model [" + model.id() + "] expects " + model.inputDim());
        }
        float[] adapted = model.encode(new float[][] {request.vector()}, outputDim)[0];
        int bad = VectorSimilarity.firstNonFinite(adapted);
        if (bad >= 0) {
            // said here, where the model is known: the adapted vector's own check could only blame [vector]
            throw new IllegalArgumentException("[" + CompressedKnnQueryBuilder.NAME + "] model [" + model.id()
                    + "] gave the non-finite value [" + adapted[bad] + "] at position " + bad
                    + " for this [vector], of length "
                    + (float) Math.sqrt(VectorSimilarity.squaredLength(request.vector())));
        }
        return adapted;
    }
}
