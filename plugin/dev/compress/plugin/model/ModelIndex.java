package dev.compress.plugin.model;

import static dev.compress.plugin.model.ModelFields.CANCEL_REQUESTED;
import static dev.compress.plugin.model.ModelFields.CHUNK;
import static dev.compress.plugin.model.ModelFields.CHUNK_COUNT;
import static dev.compress.plugin.model.ModelFields.CHUNK_DOC;
import static dev.compress.plugin.model.ModelFields.CREATED_AT;
import static dev.compress.plugin.model.ModelFields.DATA;
import static dev.compress.plugin.model.ModelFields.DESCRIPTION;
import static dev.compress.plugin.model.ModelFields.DIMENSIONS;
import static dev.compress.plugin.model.ModelFields.DOC_TYPE;
import static dev.compress.plugin.model.ModelFields.ERROR;
import static dev.compress.plugin.model.ModelFields.EVALUATION;
import static dev.compress.plugin.model.ModelFields.INPUT_DIMENSION;
import static dev.compress.plugin.model.ModelFields.METHOD;
import static dev.compress.plugin.model.ModelFields.MODEL_DOC;
import static dev.compress.plugin.model.ModelFields.MODEL_ID;
import static dev.compress.plugin.model.ModelFields.MODEL_SIZE_BYTES;
import static dev.compress.plugin.model.ModelFields.NODE_ID;
import static dev.compress.plugin.model.ModelFields.NODE_NAME;
import static dev.compress.plugin.model.ModelFields.PROGRESS;
import static dev.compress.plugin.model.ModelFields.REQUEST;
import static dev.compress.plugin.model.ModelFields.STATE;
import static dev.compress.plugin.model.ModelFields.UPDATED_AT;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Function;
import org.opensearch.ExceptionsHelper;
import org.opensearch.OpenSearchStatusException;
import org.opensearch.ResourceAlreadyExistsException;
import org.opensearch.ResourceNotFoundException;
import org.opensearch.action.DocWriteRequest;
import org.opensearch.action.admin.cluster.health.ClusterHealthRequest;
import org.opensearch.action.admin.indices.create.CreateIndexRequest;
import org.opensearch.action.bulk.BulkRequest;
import org.opensearch.action.delete.DeleteRequest;
import org.opensearch.action.get.GetRequest;
import org.opensearch.action.get.MultiGetItemResponse;
import org.opensearch.action.get.MultiGetRequest;
import org.opensearch.action.index.IndexRequest;
import org.opensearch.action.search.ClearScrollRequest;
import org.opensearch.action.search.SearchRequest;
import org.opensearch.action.search.SearchResponse;
import org.opensearch.action.search.SearchScrollRequest;
import org.opensearch.action.support.ActiveShardCount;
import org.opensearch.action.support.WriteRequest;
import org.opensearch.action.update.UpdateRequest;
import org.opensearch.cluster.routing.IndexRoutingTable;
import org.opensearch.cluster.service.ClusterService;
import org.opensearch.common.settings.Settings;
import org.opensearch.common.unit.TimeValue;
import org.opensearch.common.util.concurrent.ThreadContext;
import org.opensearch.core.action.ActionListener;
import org.opensearch.core.common.Strings;
import org.opensearch.core.rest.RestStatus;
import org.opensearch.index.engine.VersionConflictEngineException;
import org.opensearch.index.query.QueryBuilder;
import org.opensearch.index.query.QueryBuilders;
import org.opensearch.search.SearchHit;
import org.opensearch.search.builder.SearchSourceBuilder;
import org.opensearch.search.fetch.subphase.FetchSourceContext;
import org.opensearch.transport.client.Client;

/**
 * The {@value #NAME} system index: one state document per model ({@code doc_type: model}, id = the
 * model id) and the model file in chunks of {@value #CHUNK_BYTES} bytes ({@code doc_type: chunk},
 * id = {@code <model id>#<created_at>#<n>}, one set per training job), so no document grows with the model.
 *
 * <p>Requests run with a stashed thread context: the plugin, not the calling user, owns the index.
 */
public final class ModelIndex {

    public static final String NAME = ".compress-models";
    static final int CHUNK_BYTES = 1 << 20;
    private static final int CHUNKS_PER_FETCH = 8;
    /** Chunks one model may have: the search window that deleting a model reads them through (10 GB). */
    static final int MAX_CHUNKS = 10_000;
    /** Models in state {@code training} read per page by {@link #trainingModels}. */
    static final int TRAINING_PAGE = 1_000;
    /** How long a request waits for the primary of an index another request has just created. */
    private static final TimeValue PRIMARY_START_TIMEOUT = TimeValue.timeValueSeconds(30);
    /** How long {@link #trainingModels} keeps its scroll between pages. */
    private static final TimeValue SCROLL_KEEP_ALIVE = TimeValue.timeValueMinutes(1);
    /** Conditional writes retried this often when another write got in between the read and the write. */
    private static final int COMMIT_ATTEMPTS = 10;

    /** Strict: a field no writer knows is refused, not added. Disabled objects are stored, never indexed. */
    static Map<String, Object> mapping() {
        Map<String, Object> properties = new LinkedHashMap<>();
        for (String keyword : List.of(DOC_TYPE, MODEL_ID, STATE, METHOD, NODE_ID, NODE_NAME)) {
            properties.put(keyword, Map.of("type", "keyword"));
        }
        for (String text : List.of(DESCRIPTION, ERROR)) {
            properties.put(text, Map.of("type", "text"));
        }
        for (String integer : List.of(INPUT_DIMENSION, DIMENSIONS, CHUNK_COUNT, CHUNK)) {
            properties.put(integer, Map.of("type", "integer"));
        }
        for (String date : List.of(CREATED_AT, UPDATED_AT)) {
            properties.put(date, Map.of("type", "date"));
        }
        for (String object : List.of(REQUEST, PROGRESS, EVALUATION)) {
            properties.put(object, Map.of("type", "object", "enabled", false));
        }
        properties.put(MODEL_SIZE_BYTES, Map.of("type", "long"));
        properties.put(DATA, Map.of("type", "binary"));
        properties.put(CANCEL_REQUESTED, Map.of("type", "boolean"));
        return Map.of("dynamic", "strict", "properties", properties);
    }

    private final Client client;
    private final ClusterService clusterService;
    private final ThreadContext threadContext;

    public ModelIndex(Client client, ClusterService clusterService) {
        this.client = client;
        this.clusterService = clusterService;
        this.threadContext = client.threadPool().getThreadContext();
    }

    private void asPlugin(Runnable request) {
        try (ThreadContext.StoredContext ignored = threadContext.stashContext()) {
            request.run();
        }
    }

    private <T> ActionListener<T> restoring(ActionListener<T> listener) {
        return new org.opensearch.action.support.ContextPreservingActionListener<>(
                threadContext.newRestorableContext(false), listener);
    }

    /**
     * Answers once the index can be read: at once when it is absent or its primary has started, else when its
     * primary starts. A request that finds the index another request has just created would otherwise search
     * a shard still starting and fail with "all shards failed". Every read of the index (get, search, the
     * models in training) and {@link #ensureIndex} go through it.
     */
    private void whenReadable(ActionListener<Void> listener) {
        IndexRoutingTable routing = clusterService.state().routingTable().index(NAME);
        if (routing == null || routing.allPrimaryShardsActive()) {
            listener.onResponse(null);
            return;
        }
        ActionListener<Void> restoring = restoring(listener);
        asPlugin(() -> client.admin()
                .cluster()
                .health(
                        new ClusterHealthRequest(NAME)
                                .waitForActiveShards(ActiveShardCount.ONE)
                                .timeout(PRIMARY_START_TIMEOUT),
                        ActionListener.wrap(started -> restoring.onResponse(null), restoring::onFailure)));
    }

    /** Sends {@code read} as the plugin once the index can be read ({@link #whenReadable}); a failed wait goes to {@code onFailure}. */
    private void readWhenReadable(Runnable read, Consumer<Exception> onFailure) {
        whenReadable(ActionListener.wrap(readable -> asPlugin(read), onFailure::accept));
    }

    /** Creates the index when it does not exist yet. */
    public void ensureIndex(ActionListener<Void> listener) {
        ActionListener<Void> restoring = restoring(listener);
        if (clusterService.state().metadata().hasIndex(NAME)) {
            whenReadable(restoring);
            return;
        }
        CreateIndexRequest request = new CreateIndexRequest(NAME)
                .mapping(mapping())
                .settings(Settings.builder()
                        .put("index.number_of_shards", 1)
                        .put("index.auto_expand_replicas", "0-1")
                        .put("index.hidden", true));
        asPlugin(() -> client.admin()
                .indices()
                .create(request, ActionListener.wrap(r -> restoring.onResponse(null), e -> {
                    if (e instanceof ResourceAlreadyExistsException) {
                        restoring.onResponse(null);
                    } else {
                        restoring.onFailure(e);
                    }
                })));
    }

    /** Writes a new model's first state document; fails with a conflict when the id exists. */
    public void create(String modelId, Map<String, Object> document, ActionListener<Void> listener) {
        ActionListener<Void> restoring = restoring(listener);
        ensureIndex(ActionListener.wrap(
                ok -> asPlugin(() -> client.index(
                        new IndexRequest(NAME)
                                .id(modelId)
                                .source(document)
                                .opType(DocWriteRequest.OpType.CREATE)
                                .setRefreshPolicy(WriteRequest.RefreshPolicy.IMMEDIATE),
                        ActionListener.wrap(r -> restoring.onResponse(null), restoring::onFailure))),
                restoring::onFailure));
    }

    /**
     * One training job of a model: a model id can be failed, deleted and trained again while an
     * earlier job of it still runs, so a job only touches the state document it was started for.
     */
    public record Job(String modelId, long createdAtMillis) {
        public boolean owns(ModelRecord model) {
            return model.state() == ModelState.TRAINING && model.createdAtMillis() == createdAtMillis;
        }
    }

    /** How a training job's result was received: only a model still training, and not cancelled, becomes {@code created}. */
    public enum Completion {
        CREATED,
        CANCELLED,
        NO_LONGER_TRAINING
    }

    /**
     * Stores a trained model's file in chunks, then merges {@code finalFields} (with sizes) into the
     * state document if it is still the job's, {@code training}, with no cancel requested. The check
     * and the write are one step (the write is conditional on the version read), so a cancel
     * answered 202 or a sweep that failed the model always wins over a job that ends after it. The
     * same is checked before the chunks are written. {@code cancelledHere} is a stop this node holds
     * that the document does not show (the node shutting down), checked with it.
     * Chunk ids carry the job, so a refused job's chunks are deleted without touching another
     * job's; they stay only when the commit's outcome is unknown (deleting the model removes them).
     */
    public void completeTraining(
            Job job,
            byte[] file,
            Map<String, Object> finalFields,
            BooleanSupplier cancelledHere,
            ActionListener<Completion> listener) {
        ActionListener<Completion> restoring = restoring(listener);
        String modelId = job.modelId();
        BulkRequest bulk = new BulkRequest().setRefreshPolicy(WriteRequest.RefreshPolicy.IMMEDIATE);
        int chunks = (file.length + CHUNK_BYTES - 1) / CHUNK_BYTES;
        for (int i = 0; i < chunks; i++) {
            byte[] part = Arrays.copyOfRange(file, i * CHUNK_BYTES, Math.min(file.length, (i + 1) * CHUNK_BYTES));
            bulk.add(new IndexRequest(NAME)
                    .id(chunkId(job, i))
                    .source(Map.of(DOC_TYPE, CHUNK_DOC, MODEL_ID, modelId, CHUNK, i, DATA, part)));
        }
        Map<String, Object> fields = new HashMap<>(finalFields);
        fields.put(CHUNK_COUNT, chunks);
        fields.put(MODEL_SIZE_BYTES, (long) file.length);
        ActionListener<Completion> cleaning = ActionListener.wrap(
                completion -> {
                    if (completion == Completion.CREATED) {
                        restoring.onResponse(completion);
                    } else {
                        deleteChunks(
                                job,
                                chunks,
                                ActionListener.wrap(ok -> restoring.onResponse(completion), restoring::onFailure));
                    }
                },
                e -> deleteChunks(
                        job,
                        chunks,
                        ActionListener.wrap(ok -> restoring.onFailure(e), ignored -> restoring.onFailure(e))));
        getVersioned(
                modelId,
                ActionListener.wrap(
                        before -> {
                            Completion refused = refusal(job, before.model(), cancelledHere);
                            if (refused != null) {
                                restoring.onResponse(refused);
                                return;
                            }
                            bulk(
                                    bulk,
                                    "storing model [" + modelId + "]",
                                    ActionListener.wrap(
                                            stored -> commitCreated(job, fields, cancelledHere, cleaning, restoring),
                                            cleaning::onFailure));
                        },
                        restoring::onFailure));
    }

    /** Why {@code job} may not make {@code model} created, or null when it may. */
    private static Completion refusal(Job job, ModelRecord model, BooleanSupplier cancelledHere) {
        if (job.owns(model) == false) {
            return Completion.NO_LONGER_TRAINING;
        }
        return model.cancelRequested() || cancelledHere.getAsBoolean() ? Completion.CANCELLED : null;
    }

    /**
     * {@code outcomeUnknown} answers when a write failed and reading back did too: its chunks must stay,
     * unless the read found no model, whose chunks nothing refers to.
     */
    private void commitCreated(
            Job job,
            Map<String, Object> fields,
            BooleanSupplier cancelledHere,
            ActionListener<Completion> listener,
            ActionListener<Completion> outcomeUnknown) {
        updateUnlessRefused(
                job.modelId(),
                model -> refusal(job, model, cancelledHere),
                fields,
                Completion.CREATED,
                ActionListener.wrap(listener::onResponse, e -> {
                    // the write may have been applied though its answer was lost: read it back
                    getVersioned(
                            job.modelId(),
                            ActionListener.wrap(
                                    after -> {
                                        ModelRecord model = after.model();
                                        if (model.state() == ModelState.CREATED
                                                && model.createdAtMillis() == job.createdAtMillis()) {
                                            listener.onResponse(Completion.CREATED);
                                        } else {
                                            listener.onFailure(e);
                                        }
                                    },
                                    unread -> (ExceptionsHelper.unwrapCause(unread) instanceof ResourceNotFoundException
                                                    ? listener
                                                    : outcomeUnknown)
                                            .onFailure(e)));
                }));
    }

    /**
     * Reads the model and asks {@code refusal} whether to write: a non-null answer is returned as is
     * and nothing is written; null merges {@code fields}, conditionally on the version read, and
     * answers {@code written}. Another write in between makes it read and ask again, up to
     * {@value #COMMIT_ATTEMPTS} times; then the version conflict is the failure. Every write that
     * depends on a model's state goes through here, so none acts on a state that has moved on.
     */
    public <T> void updateUnlessRefused(
            String modelId,
            Function<ModelRecord, T> refusal,
            Map<String, Object> fields,
            T written,
            ActionListener<T> listener) {
        updateUnlessRefused(modelId, refusal, fields, written, COMMIT_ATTEMPTS, restoring(listener));
    }

    private <T> void updateUnlessRefused(
            String modelId,
            Function<ModelRecord, T> refusal,
            Map<String, Object> fields,
            T written,
            int attemptsLeft,
            ActionListener<T> listener) {
        getVersioned(
                modelId,
                ActionListener.wrap(
                        read -> {
                            T refused = refusal.apply(read.model());
                            if (refused != null) {
                                listener.onResponse(refused);
                                return;
                            }
                            updateIfUnchanged(
                                    read, fields, ActionListener.wrap(ok -> listener.onResponse(written), e -> {
                                        if (isVersionConflict(e) && attemptsLeft > 1) {
                                            updateUnlessRefused(
                                                    modelId, refusal, fields, written, attemptsLeft - 1, listener);
                                        } else {
                                            listener.onFailure(e);
                                        }
                                    }));
                        },
                        listener::onFailure));
    }

    /**
     * Merges {@code fields} into the job's model if it is still the job's and {@code training};
     * answers whether it did. Jobs write progress and sweeps and jobs write {@code failed} through
     * it, so none of them overwrites a model that was created meanwhile, nor a newer model of the
     * same id.
     */
    public void updateTraining(Job job, Map<String, Object> fields, ActionListener<Boolean> listener) {
        updateUnlessRefused(job.modelId(), model -> job.owns(model) ? null : false, fields, true, listener);
    }

    /** {@link #updateTraining} to {@code failed} with {@code reason}. */
    public void failTraining(Job job, String reason, ActionListener<Boolean> listener) {
        updateTraining(job, failedFields(reason), listener);
    }

    /** The fields that leave a model {@code failed} with {@code reason}. */
    public static Map<String, Object> failedFields(String reason) {
        return Map.of(STATE, ModelState.FAILED.jsonName(), ERROR, reason, UPDATED_AT, System.currentTimeMillis());
    }

    private void deleteChunks(Job job, int chunks, ActionListener<Void> listener) {
        if (chunks == 0) {
            listener.onResponse(null);
            return;
        }
        BulkRequest bulk = new BulkRequest().setRefreshPolicy(WriteRequest.RefreshPolicy.IMMEDIATE);
        for (int i = 0; i < chunks; i++) {
            bulk.add(new DeleteRequest(NAME, chunkId(job, i)));
        }
        bulk(bulk, "deleting the chunks of model [" + job.modelId() + "]", listener);
    }

    /** Runs {@code bulk} as the plugin; any failed item fails {@code listener} with "{what} failed: ...". */
    private void bulk(BulkRequest bulk, String what, ActionListener<Void> listener) {
        asPlugin(() -> client.bulk(
                bulk,
                ActionListener.wrap(
                        r -> {
                            if (r.hasFailures()) {
                                listener.onFailure(
                                        new IllegalStateException(what + " failed: " + r.buildFailureMessage()));
                            } else {
                                listener.onResponse(null);
                            }
                        },
                        listener::onFailure)));
    }

    /** A state document with the sequence number and primary term it was read at. */
    public record Versioned(ModelRecord model, long seqNo, long primaryTerm) {}

    /** Like {@link #get}, with the version read, for {@link #updateIfUnchanged} and {@link #delete}. */
    public void getVersioned(String modelId, ActionListener<Versioned> listener) {
        ActionListener<Versioned> restoring = restoring(listener);
        readWhenReadable(
                () -> client.get(
                        new GetRequest(NAME, modelId),
                        ActionListener.wrap(
                                r -> {
                                    if (r.isExists() == false
                                            || MODEL_DOC.equals(r.getSource().get(DOC_TYPE)) == false) {
                                        restoring.onFailure(new ResourceNotFoundException(
                                                "model [" + modelId + "] does not exist"));
                                    } else {
                                        restoring.onResponse(new Versioned(
                                                new ModelRecord(modelId, r.getSource()),
                                                r.getSeqNo(),
                                                r.getPrimaryTerm()));
                                    }
                                },
                                e -> restoring.onFailure(
                                        e instanceof org.opensearch.index.IndexNotFoundException
                                                ? new ResourceNotFoundException(
                                                        "model [" + modelId + "] does not exist")
                                                : e))),
                restoring::onFailure);
    }

    /** Merges {@code fields} only if the document has not changed since {@code read}; a version conflict otherwise. */
    void updateIfUnchanged(Versioned read, Map<String, Object> fields, ActionListener<Void> listener) {
        ActionListener<Void> restoring = restoring(listener);
        asPlugin(() -> client.update(
                new UpdateRequest(NAME, read.model().id())
                        .doc(fields)
                        .setIfSeqNo(read.seqNo())
                        .setIfPrimaryTerm(read.primaryTerm())
                        .setRefreshPolicy(WriteRequest.RefreshPolicy.IMMEDIATE),
                ActionListener.wrap(r -> restoring.onResponse(null), restoring::onFailure)));
    }

    public static boolean isVersionConflict(Exception e) {
        return ExceptionsHelper.unwrapCause(e) instanceof VersionConflictEngineException;
    }

    /** The state document of a model; {@link ResourceNotFoundException} (404) when there is none. */
    public void get(String modelId, ActionListener<ModelRecord> listener) {
        getVersioned(modelId, ActionListener.map(listener, Versioned::model));
    }

    /**
     * The model file of a created model, reassembled from its chunks a few at a time. A document or
     * chunks that cannot make up a file (edited by hand, or partly deleted) are a 409 naming the model.
     */
    public void getModelFile(ModelRecord model, ActionListener<byte[]> listener) {
        ActionListener<byte[]> restoring = restoring(listener);
        byte[] file;
        try {
            if (model.state() != ModelState.CREATED) {
                restoring.onFailure(new OpenSearchStatusException(
                        "model [" + model.id() + "] is [" + model.state().jsonName()
                                + "], not [created]: it has no weights",
                        RestStatus.CONFLICT));
                return;
            }
            long size = model.modelSizeBytes();
            int chunks = model.chunkCount();
            if (chunks != (size + CHUNK_BYTES - 1) / CHUNK_BYTES) {
                throw new IllegalStateException("[" + CHUNK_COUNT + "] [" + chunks + "] does not hold ["
                        + MODEL_SIZE_BYTES + "] [" + size + "]");
            }
            file = new byte[(int) size];
        } catch (RuntimeException e) {
            restoring.onFailure(unreadable(model, e));
            return;
        }
        fetchChunks(model, 0, file, restoring);
    }

    private static OpenSearchStatusException unreadable(ModelRecord model, Exception e) {
        return new OpenSearchStatusException(
                "model [" + model.id() + "] cannot be read: " + e.getMessage(), RestStatus.CONFLICT, e);
    }

    private void fetchChunks(ModelRecord model, int first, byte[] file, ActionListener<byte[]> listener) {
        if (first >= model.chunkCount()) {
            listener.onResponse(file);
            return;
        }
        MultiGetRequest request = new MultiGetRequest();
        int last = Math.min(model.chunkCount(), first + CHUNKS_PER_FETCH);
        for (int i = first; i < last; i++) {
            request.add(NAME, chunkId(model.job(), i));
        }
        asPlugin(() -> client.multiGet(
                request,
                ActionListener.wrap(
                        r -> {
                            for (MultiGetItemResponse item : r.getResponses()) {
                                try {
                                    copyChunk(item, file);
                                } catch (RuntimeException e) {
                                    listener.onFailure(unreadable(model, e));
                                    return;
                                }
                            }
                            fetchChunks(model, last, file, listener);
                        },
                        listener::onFailure)));
    }

    /** Copies one fetched chunk into its place in {@code file}; a chunk missing or out of place throws. */
    private static void copyChunk(MultiGetItemResponse item, byte[] file) {
        if (item.isFailed() || item.getResponse().isExists() == false) {
            throw new IllegalStateException("chunk [" + item.getId() + "] is missing");
        }
        Map<String, Object> source = item.getResponse().getSource();
        // binary fields come back as base64 text from JSON sources and as bytes from binary ones
        Object data = source.get(DATA);
        byte[] part = data instanceof byte[] bytes ? bytes : Base64.getDecoder().decode((String) data);
        long start = source.get(CHUNK) instanceof Integer n ? (long) n * CHUNK_BYTES : -1;
        if (start < 0 || start + part.length > file.length) {
            throw new IllegalStateException(
                    "chunk [" + item.getId() + "] does not fit the file's " + file.length + " bytes");
        }
        System.arraycopy(part, 0, file, (int) start, part.length);
    }

    /**
     * Deletes the state document, if it has not changed since {@code read} (a version conflict
     * otherwise, and nothing is deleted), then every chunk of the model id, also those a refused or
     * failed job left behind (found by search, not by the state document's count). The state goes
     * first so that a model whose document changed meanwhile (a new job of the same id, a sweep)
     * keeps its chunks.
     */
    public void delete(Versioned read, ActionListener<Void> listener) {
        ActionListener<Void> restoring = restoring(listener);
        String id = read.model().id();
        asPlugin(() -> client.delete(
                new DeleteRequest(NAME, id)
                        .setIfSeqNo(read.seqNo())
                        .setIfPrimaryTerm(read.primaryTerm())
                        .setRefreshPolicy(WriteRequest.RefreshPolicy.IMMEDIATE),
                ActionListener.wrap(deleted -> deleteEveryChunk(id, restoring), restoring::onFailure)));
    }

    /**
     * Deletes every chunk document of {@code modelId}, of whichever job: a page of them at a time, each
     * deleted and refreshed before the next is searched, until a search finds none (a model's chunks and
     * those failed jobs left behind can be more than one page).
     */
    private void deleteEveryChunk(String modelId, ActionListener<Void> listener) {
        SearchSourceBuilder chunks = new SearchSourceBuilder()
                .query(QueryBuilders.boolQuery()
                        .filter(QueryBuilders.termQuery(DOC_TYPE, CHUNK_DOC))
                        .filter(QueryBuilders.termQuery(MODEL_ID, modelId)))
                .fetchSource(false)
                .size(MAX_CHUNKS);
        asPlugin(() -> client.search(
                new SearchRequest(NAME).source(chunks),
                ActionListener.wrap(
                        found -> {
                            if (found.getHits().getHits().length == 0) {
                                listener.onResponse(null);
                                return;
                            }
                            BulkRequest bulk = new BulkRequest().setRefreshPolicy(WriteRequest.RefreshPolicy.IMMEDIATE);
                            found.getHits().forEach(hit -> bulk.add(new DeleteRequest(NAME, hit.getId())));
                            bulk(
                                    bulk,
                                    "deleting the chunks of model [" + modelId + "]",
                                    ActionListener.wrap(
                                            deleted -> deleteEveryChunk(modelId, listener), listener::onFailure));
                        },
                        listener::onFailure)));
    }

    /** Searches state documents only; {@code query} may be null for all. */
    public void search(SearchSourceBuilder source, ActionListener<SearchResponse> listener) {
        ActionListener<SearchResponse> restoring = restoring(listener);
        QueryBuilder models = QueryBuilders.termQuery(DOC_TYPE, MODEL_DOC);
        source.query(
                source.query() == null
                        ? models
                        : QueryBuilders.boolQuery().filter(models).must(source.query()));
        source.fetchSource(withoutInternals(source.fetchSource()));
        readWhenReadable(
                () -> client.search(
                        new SearchRequest(NAME)
                                .source(source)
                                .indicesOptions(org.opensearch.action.support.IndicesOptions.lenientExpandOpenHidden()),
                        restoring),
                restoring::onFailure);
    }

    /**
     * The caller's {@code _source} choice, never with a chunk's {@code data} or the {@code doc_type} that tells state
     * documents from chunks (every document shown is a model, as GET shows it).
     */
    private static FetchSourceContext withoutInternals(FetchSourceContext asked) {
        if (asked == null) {
            return new FetchSourceContext(true, Strings.EMPTY_ARRAY, new String[] {DATA, DOC_TYPE});
        }
        if (asked.fetchSource() == false) {
            return asked;
        }
        String[] excludes = Arrays.copyOf(asked.excludes(), asked.excludes().length + 2);
        excludes[excludes.length - 2] = DATA;
        excludes[excludes.length - 1] = DOC_TYPE;
        return new FetchSourceContext(true, asked.includes(), excludes);
    }

    /**
     * Models in state {@code training}, with the node running each: every one, read a page at a time
     * through a scroll, which needs no sort field (the index may have been created by a restore or by
     * hand, with other mappings than this class gives it).
     */
    public void trainingModels(Consumer<List<ModelRecord>> onResult, Consumer<Exception> onFailure) {
        SearchSourceBuilder source = new SearchSourceBuilder()
                .query(QueryBuilders.boolQuery()
                        .filter(QueryBuilders.termQuery(DOC_TYPE, MODEL_DOC))
                        .filter(QueryBuilders.termQuery(STATE, ModelState.TRAINING.jsonName())))
                .fetchSource(withoutInternals(null))
                .size(TRAINING_PAGE);
        List<ModelRecord> found = new ArrayList<>();
        ActionListener<SearchResponse> pages =
                restoring(ActionListener.wrap(page -> nextPage(page, found, onResult, onFailure), onFailure::accept));
        readWhenReadable(
                () -> client.search(
                        new SearchRequest(NAME)
                                .source(source)
                                .scroll(SCROLL_KEEP_ALIVE)
                                .indicesOptions(org.opensearch.action.support.IndicesOptions.lenientExpandOpenHidden()),
                        pages),
                onFailure);
    }

    private void nextPage(
            SearchResponse page,
            List<ModelRecord> found,
            Consumer<List<ModelRecord>> onResult,
            Consumer<Exception> onFailure) {
        SearchHit[] hits = page.getHits().getHits();
        for (SearchHit hit : hits) {
            found.add(new ModelRecord(hit.getId(), hit.getSourceAsMap()));
        }
        String scrollId = page.getScrollId();
        if (hits.length < TRAINING_PAGE || scrollId == null) {
            if (scrollId != null) {
                ClearScrollRequest clear = new ClearScrollRequest();
                clear.addScrollId(scrollId);
                asPlugin(() -> client.clearScroll(clear, ActionListener.wrap(cleared -> {}, failed -> {})));
            }
            onResult.accept(found);
            return;
        }
        ActionListener<SearchResponse> pages =
                restoring(ActionListener.wrap(next -> nextPage(next, found, onResult, onFailure), onFailure::accept));
        asPlugin(() -> client.searchScroll(new SearchScrollRequest(scrollId).scroll(SCROLL_KEEP_ALIVE), pages));
    }

    /** A chunk's document id: the job's, since a model id can be trained again while an earlier job still runs. */
    static String chunkId(Job job, int chunk) {
        return job.modelId() + "#" + job.createdAtMillis() + "#" + chunk;
    }
}
