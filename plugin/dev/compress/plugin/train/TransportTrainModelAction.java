package dev.compress.plugin.train;

import dev.compress.plugin.CompressSettings;
import dev.compress.plugin.model.ModelIndex;
import dev.compress.plugin.model.ModelRecord;
import dev.compress.plugin.model.action.ModelActions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.opensearch.ExceptionsHelper;
import org.opensearch.OpenSearchStatusException;
import org.opensearch.ResourceNotFoundException;
import org.opensearch.action.ActionListenerResponseHandler;
import org.opensearch.action.support.ActionFilters;
import org.opensearch.action.support.HandledTransportAction;
import org.opensearch.action.support.clustermanager.AcknowledgedResponse;
import org.opensearch.cluster.node.DiscoveryNode;
import org.opensearch.cluster.service.ClusterService;
import org.opensearch.common.UUIDs;
import org.opensearch.common.inject.Inject;
import org.opensearch.common.settings.Settings;
import org.opensearch.common.xcontent.support.XContentMapValues;
import org.opensearch.core.action.ActionListener;
import org.opensearch.core.common.unit.ByteSizeValue;
import org.opensearch.core.rest.RestStatus;
import org.opensearch.index.query.QueryBuilders;
import org.opensearch.search.SearchHit;
import org.opensearch.tasks.Task;
import org.opensearch.transport.TransportService;
import org.opensearch.transport.client.Client;

/**
 * {@code POST _plugins/compress/_train}: validates everything, places the job on a node, which
 * takes a training slot and writes the model document in state {@code training}
 * ({@link TransportRunTrainingAction}), and answers at once with the model id.
 *
 * <p>Placement: data nodes with a free training slot ({@code compress.training.max_jobs_per_node})
 * by the models in {@code training}, those marked {@code node.attr.compress_gpu: true} first unless
 * the request asks for the CPU (only those when it asks for the GPU), then the least busy. That
 * count is read before this request's model is written, so concurrent requests can agree on one
 * free slot: the node itself admits them one at a time, and one it refuses goes to the next node.
 */
public final class TransportTrainModelAction extends HandledTransportAction<TrainModelRequest, TrainModelResponse> {

    static final String GPU_ATTRIBUTE = "compress_gpu";

    private final TransportService transportService;
    private final ClusterService clusterService;
    private final Client client;
    private final ModelIndex models;
    private final int maxJobsPerNode;
    private volatile long maxCorpusBytes;

    @Inject
    public TransportTrainModelAction(
            TransportService transportService,
            ActionFilters actionFilters,
            ClusterService clusterService,
            Client client,
            ModelIndex models,
            Settings settings) {
        super(ModelActions.TRAIN.name(), transportService, actionFilters, TrainModelRequest::new);
        this.transportService = transportService;
        this.clusterService = clusterService;
        this.client = client;
        this.models = models;
        this.maxJobsPerNode = CompressSettings.TRAINING_MAX_JOBS_PER_NODE.get(settings);
        this.maxCorpusBytes =
                CompressSettings.TRAINING_MAX_CORPUS_SIZE.get(settings).getBytes();
        clusterService
                .getClusterSettings()
                .addSettingsUpdateConsumer(
                        CompressSettings.TRAINING_MAX_CORPUS_SIZE, limit -> maxCorpusBytes = limit.getBytes());
    }

    @Override
    protected void doExecute(Task task, TrainModelRequest request, ActionListener<TrainModelResponse> listener) {
        TrainSpec spec;
        int inputDim;
        try {
            String idProblem = request.modelId() == null ? null : TrainModelRequest.modelIdProblem(request.modelId());
            if (idProblem != null) {
                throw new IllegalArgumentException("[model_id] " + idProblem + ", got [" + request.modelId() + "]");
            }
            spec = request.spec();
            inputDim = TrainSpecValidator.validate(spec, clusterService.state());
        } catch (IllegalArgumentException e) {
            listener.onFailure(e);
            return;
        }
        ActionListener<Boolean> judged = ActionListener.wrap(
                anyPositive -> {
                    if (anyPositive == false) {
                        listener.onFailure(new IllegalArgumentException(
                                spec.srwJudgments()
                                        ? "[judgments.srw_judgment_id] judgment list [" + spec.srwJudgmentId()
                                                + "] has no usable judgments: no rating rounds to 1 or more"
                                        : "[judgments.index] [" + spec.judgmentsIndex()
                                                + "] has no usable judgments: no document has ["
                                                + spec.judgmentsRatingField() + "] >= " + Grades.LOWEST_RELEVANT));
                        return;
                    }
                    Runnable place = () -> checkCorpusSize(
                            spec,
                            inputDim,
                            ActionListener.wrap(
                                    fits -> models.trainingModels(
                                            training -> refuseExisting(
                                                    request.modelId(),
                                                    () -> place(request, spec, inputDim, training, listener),
                                                    listener),
                                            listener::onFailure),
                                    listener::onFailure));
                    if (spec.srwJudgments()) {
                        place.run(); // reading the list has checked its grades already
                    } else {
                        refuseGradesAboveHighest(spec, place, listener);
                    }
                },
                listener::onFailure);
        if (spec.srwJudgments()) {
            SrwJudgmentList.read(
                    client, spec.srwJudgmentId(), ActionListener.map(judged, SrwJudgmentList::hasRelevant));
        } else {
            client.prepareSearch(spec.judgmentsIndex())
                    .setQuery(QueryBuilders.rangeQuery(spec.judgmentsRatingField())
                            .gte(Grades.LOWEST_RELEVANT))
                    .setSize(0)
                    .setTrackTotalHits(true)
                    .execute(ActionListener.map(
                            judged, count -> count.getHits().getTotalHits().value() > 0));
        }
    }

    /** Refuses judgments whose rating rounds above {@link Grades#HIGHEST}, counted in the index, before any job. */
    private void refuseGradesAboveHighest(TrainSpec spec, Runnable then, ActionListener<?> listener) {
        client.prepareSearch(spec.judgmentsIndex())
                .setQuery(QueryBuilders.rangeQuery(spec.judgmentsRatingField()).gte(Grades.HIGHEST + 0.5))
                // one of them from _source, as sent: a sort would need the field's doc values
                .setFetchSource(spec.judgmentsRatingField(), null)
                .setSize(1)
                .setTrackTotalHits(true)
                .execute(ActionListener.wrap(
                        found -> {
                            long above = found.getHits().getTotalHits().value();
                            if (above > 0) {
                                SearchHit example = found.getHits().getHits()[0];
                                listener.onFailure(new IllegalArgumentException("[judgments.rating_field] ["
                                        + spec.judgmentsRatingField() + "] of " + above + " judgments in ["
                                        + spec.judgmentsIndex() + "] rounds above the highest grade "
                                        + Grades.HIGHEST + " that training takes, such as ["
                                        + XContentMapValues.extractValue(
                                                spec.judgmentsRatingField(), example.getSourceAsMap())
                                        + "] in document [" + example.getId() + "]"));
                            } else {
                                then.run();
                            }
                        },
                        listener::onFailure));
    }

    /**
     * The job spills the corpus to a file in the training node's temporary directory: a corpus whose
     * file would exceed {@code compress.training.max_corpus_size} is refused here. Whether that
     * directory has room is checked on the training node when the job starts ({@link TrainingJobs}).
     */
    private void checkCorpusSize(TrainSpec spec, int inputDim, ActionListener<Void> listener) {
        long limit = maxCorpusBytes;
        client.prepareSearch(spec.corpusIndex())
                .setSize(0)
                .setTrackTotalHits(true)
                .execute(ActionListener.wrap(
                        found -> {
                            long docs = found.getHits().getTotalHits().value();
                            if (docs == 0) {
                                listener.onFailure(new IllegalArgumentException(
                                        "[corpus.index] [" + spec.corpusIndex() + "] has no documents to train on"));
                                return;
                            }
                            if (CorpusFile.bytes(docs, inputDim) > limit) {
                                listener.onFailure(new IllegalArgumentException(
                                        CorpusFile.describe(spec.corpusIndex(), docs, inputDim) + ", above ["
                                                + CompressSettings.TRAINING_MAX_CORPUS_SIZE.getKey() + "] = "
                                                + new ByteSizeValue(limit)));
                                return;
                            }
                            listener.onResponse(null);
                        },
                        listener::onFailure));
    }

    /**
     * A model id that exists is a 409 before any node is asked, so that the answer does not depend on
     * whether a node has a free slot (a 429 says to retry, which cannot help). The node that takes the job
     * still writes the model only if the id is new, since another request can take the id meanwhile.
     */
    private void refuseExisting(String modelId, Runnable place, ActionListener<TrainModelResponse> listener) {
        if (modelId == null) {
            place.run();
            return;
        }
        models.get(
                modelId,
                ActionListener.wrap(
                        exists -> listener.onFailure(new OpenSearchStatusException(
                                "model [" + modelId + "] already exists", RestStatus.CONFLICT)),
                        e -> {
                            if (ExceptionsHelper.unwrapCause(e) instanceof ResourceNotFoundException) {
                                place.run();
                            } else {
                                listener.onFailure(e);
                            }
                        }));
    }

    private static boolean hasGpu(DiscoveryNode node) {
        return "true".equals(node.getAttributes().get(GPU_ATTRIBUTE));
    }

    private void place(
            TrainModelRequest request,
            TrainSpec spec,
            int inputDim,
            List<ModelRecord> training,
            ActionListener<TrainModelResponse> listener) {
        Map<String, Integer> busy = new HashMap<>();
        for (ModelRecord m : training) {
            try {
                busy.merge(m.nodeId(), 1, Integer::sum);
            } catch (ModelRecord.UnreadableModelException e) {
                // names no node: it occupies none (the sweeps skip it; _cancel or DELETE ends it)
            }
        }
        boolean wantsGpu = "cpu".equals(spec.device()) == false;
        // device [gpu] fails on a node without one, so it may only go to nodes marked as having one
        boolean needsGpu = "gpu".equals(spec.device());
        List<DiscoveryNode> eligible = clusterService.state().nodes().getDataNodes().values().stream()
                .filter(n -> needsGpu == false || hasGpu(n))
                .toList();
        if (eligible.isEmpty()) {
            listener.onFailure(new IllegalArgumentException("[device] is [gpu] but no data node is marked [node.attr."
                    + GPU_ATTRIBUTE + ": true]; mark the nodes that have one, or use [auto] or [cpu]"));
            return;
        }
        // the count comes from a search, which may not see a job's final state yet: a node that looks full is
        // still asked, last, and its slots decide
        List<DiscoveryNode> candidates = eligible.stream()
                .sorted(Comparator.<DiscoveryNode, Boolean>comparing(
                                n -> busy.getOrDefault(n.getId(), 0) >= maxJobsPerNode)
                        .thenComparing(n -> wantsGpu && hasGpu(n) == false)
                        .thenComparing(n -> busy.getOrDefault(n.getId(), 0))
                        .thenComparing(DiscoveryNode::getId))
                .toList();
        String modelId = request.modelId() != null ? request.modelId() : UUIDs.randomBase64UUID();
        startOn(
                candidates,
                0,
                new TrainModelRequest(modelId, request.body(), inputDim, System.currentTimeMillis()),
                needsGpu,
                new ArrayList<>(),
                listener);
    }

    /** The nodes' own refusals, each with its own node's limit (a node setting, which nodes may set apart). */
    private static OpenSearchStatusException allBusy(boolean needsGpu, List<String> refusals) {
        List<String> reasons = refusals.stream()
                .map(r -> r.endsWith(TrainingJobs.RETRY) ? r.substring(0, r.length() - TrainingJobs.RETRY.length()) : r)
                .toList();
        return new OpenSearchStatusException(
                "every " + (needsGpu ? "GPU " : "") + "data node is busy: " + String.join("; ", reasons)
                        + TrainingJobs.RETRY,
                RestStatus.TOO_MANY_REQUESTS);
    }

    /**
     * Asks {@code candidates[i]} to run the job; the node takes a slot and writes the model document
     * itself ({@link TransportRunTrainingAction}). A node whose slots are all taken answers 429 and
     * the next candidate is asked; when every one does, the answer is a 429. Any other failure fails
     * the job's document, if the node wrote it (the write is conditional on this job's creation time,
     * so a model that already existed is untouched), and is the answer.
     */
    private void startOn(
            List<DiscoveryNode> candidates,
            int i,
            TrainModelRequest placed,
            boolean needsGpu,
            List<String> refusals,
            ActionListener<TrainModelResponse> listener) {
        DiscoveryNode node = candidates.get(i);
        String modelId = placed.modelId();
        transportService.sendRequest(
                node,
                ModelActions.RUN_TRAINING.name(),
                placed,
                new ActionListenerResponseHandler<>(
                        ActionListener.wrap(
                                started -> listener.onResponse(new TrainModelResponse(modelId, node.getName())), e -> {
                                    Throwable cause = ExceptionsHelper.unwrapCause(e);
                                    Exception answer = cause instanceof Exception unwrapped ? unwrapped : e;
                                    if (ExceptionsHelper.status(cause) == RestStatus.TOO_MANY_REQUESTS) {
                                        refusals.add(cause.getMessage());
                                        if (i + 1 < candidates.size()) {
                                            startOn(candidates, i + 1, placed, needsGpu, refusals, listener);
                                        } else {
                                            listener.onFailure(allBusy(needsGpu, refusals));
                                        }
                                        return;
                                    }
                                    models.failTraining(
                                            new ModelIndex.Job(modelId, placed.createdAtMillis()),
                                            "could not start on node [" + node.getName() + "]: " + cause.getMessage(),
                                            ActionListener.wrap(
                                                    ok -> listener.onFailure(answer),
                                                    ignored -> listener.onFailure(answer)));
                                }),
                        AcknowledgedResponse::new));
    }
}
