package dev.compress.plugin.query;

import dev.compress.plugin.inference.LoadedModel;
import dev.compress.plugin.inference.SearchPoolInference;
import dev.compress.plugin.mapper.VectorSimilarity;
import java.util.List;
import java.util.Set;
import org.opensearch.action.support.ActionFilters;
import org.opensearch.action.support.HandledTransportAction;
import org.opensearch.cluster.metadata.IndexNameExpressionResolver;
import org.opensearch.cluster.service.ClusterService;
import org.opensearch.common.inject.Inject;
import org.opensearch.core.action.ActionListener;
import org.opensearch.tasks.Task;
import org.opensearch.transport.TransportService;

/**
 * Adapts one query vector with this node's cached model, on a search thread ({@link SearchPoolInference}): errors
 * name the model and both dimensions. A model with several output dimensions, asked for none, serves the one the
 * searched field has where the searched indices agree on it ({@link SearchedFieldDimensions}).
 */
public final class TransportAdaptQueryVectorAction
        extends HandledTransportAction<AdaptQueryVectorRequest, AdaptQueryVectorResponse> {

    private final SearchPoolInference inference;
    private final ClusterService clusterService;
    private final IndexNameExpressionResolver resolver;

    @Inject
    public TransportAdaptQueryVectorAction(
            TransportService transportService,
            ActionFilters actionFilters,
            SearchPoolInference inference,
            ClusterService clusterService,
            IndexNameExpressionResolver resolver) {
        super(AdaptQueryVectorAction.NAME, transportService, actionFilters, AdaptQueryVectorRequest::new);
        this.inference = inference;
        this.clusterService = clusterService;
        this.resolver = resolver;
    }

    @Override
    protected void doExecute(
            Task task, AdaptQueryVectorRequest request, ActionListener<AdaptQueryVectorResponse> listener) {
        inference.apply(request.modelId(), model -> new AdaptQueryVectorResponse(adapt(model, request)), listener);
    }

    private float[] adapt(LoadedModel model, AdaptQueryVectorRequest request) {
        model.requireEmbeddingOutput();
        if (request.vector().length != model.inputDim()) {
            throw new IllegalArgumentException(
                    "[" + CompressedKnnQueryBuilder.NAME + "] [vector] has " + request.vector().length
                            + " dimensions but model [" + model.id() + "] expects " + model.inputDim());
        }
        int outputDim =
                model.outputDim(request.dimension() == null ? fieldDimension(model, request) : request.dimension());
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

    /**
     * The output of a model with several that the searched field takes, where the searched indices agree on one
     * dimension; null (the model's largest) for a model with one output, outside a search, where no searched index
     * maps the field, and where the indices map it with several dimensions (the shards of those that differ fail, as
     * with any vector of the wrong length).
     */
    private Integer fieldDimension(LoadedModel model, AdaptQueryVectorRequest request) {
        List<Integer> served = model.metadata().outputDims();
        if (served.size() < 2 || request.searched() == null) {
            return null;
        }
        Set<Integer> dimensions =
                SearchedFieldDimensions.of(clusterService.state(), resolver, request.searched(), request.field());
        if (dimensions.size() != 1) {
            return null;
        }
        int dimension = dimensions.iterator().next();
        if (served.contains(dimension) == false) {
            // every shard would refuse the model's largest output: say why once
            throw new IllegalArgumentException("[" + CompressedKnnQueryBuilder.NAME + "] field [" + request.field()
                    + "] has " + dimension + " dimensions, and model [" + model.id() + "] serves output dimensions "
                    + served);
        }
        return dimension;
    }
}
