package dev.compress.plugin.train;

import dev.compress.plugin.model.ModelFields;
import dev.compress.plugin.model.ModelIndex;
import dev.compress.plugin.model.ModelRecord;
import dev.compress.plugin.model.ModelState;
import dev.compress.plugin.model.action.ModelActions;
import dev.compress.plugin.model.action.ModelIdRequest;
import dev.compress.plugin.stats.CompressCounters;
import dev.compress.training.data.Qrels;
import dev.compress.training.data.VectorRows;
import dev.compress.training.data.VectorSet;
import dev.compress.training.job.TrainingRun;
import dev.compress.training.model.ModelFile;
import dev.compress.training.sampling.QuerySplit;
import dev.compress.training.trainer.EpochStats;
import dev.compress.training.trainer.QueryMaskConfig;
import dev.compress.training.trainer.QueryMaskTrainer;
import dev.compress.training.trainer.Trainer;
import dev.compress.training.trainer.TrainerFactory;
import dev.compress.training.trainer.TrainingListener;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.opensearch.ExceptionsHelper;
import org.opensearch.OpenSearchStatusException;
import org.opensearch.ResourceNotFoundException;
import org.opensearch.cluster.ClusterChangedEvent;
import org.opensearch.cluster.ClusterState;
import org.opensearch.cluster.ClusterStateListener;
import org.opensearch.cluster.routing.IndexRoutingTable;
import org.opensearch.cluster.service.ClusterService;
import org.opensearch.common.lease.Releasable;
import org.opensearch.common.unit.TimeValue;
import org.opensearch.common.util.concurrent.ThreadContext;
import org.opensearch.core.action.ActionListener;
import org.opensearch.core.rest.RestStatus;
import org.opensearch.secure_sm.AccessController;
import org.opensearch.tasks.Task;
import org.opensearch.tasks.TaskManager;
import org.opensearch.threadpool.Scheduler;
import org.opensearch.threadpool.ThreadPool;
import org.opensearch.transport.client.Client;

/**
 * The training jobs of this node: each runs on the {@value #THREAD_POOL} pool, reads its inputs
 * from indices (the corpus vectors into a {@link CorpusFile} in the node's temporary directory, the
 * rest onto the heap), trains, evaluates on held-out queries and stores the model. Progress goes to the
 * model document after every epoch. A cancel request (a flag on the model document) stops the job
 * at its next epoch (before training: within its next corpus document, phase or twentieth of the
 * mining or the corpus PCA; after: before its held-out evaluation) and leaves the model {@code failed}; a job that
 * ends first is refused {@code created} ({@link ModelIndex#completeTraining}). Each job is also a
 * {@link TrainingTask}: cancelling the task writes the same flag and then stops the job, so both ways
 * end alike.
 *
 * <p>No model may stay {@code training} forever: the elected cluster manager fails the models of
 * nodes that left, and every node fails, once after it starts, the models it was training before,
 * and both check again every {@code compress.training.sweep_interval}.
 */
public final class TrainingJobs implements ClusterStateListener {

    public static final String THREAD_POOL = "compress_training";
    private static final Logger logger = LogManager.getLogger(TrainingJobs.class);
    private static final long CANCEL_POLL_NANOS = 2_000_000_000L;
    /** How long a model may wait for its job to start before the timed sweep calls it an orphan. */
    private static final long START_GRACE_MILLIS = 60_000;
    /** How a node's 429 ends; a coordinating node that gathers several says it once. */
    static final String RETRY = "; retry when one finishes";

    private final Client client;
    private final ClusterService clusterService;
    private final ThreadPool threadPool;
    private final ModelIndex models;
    private final CompressCounters counters;
    private final Map<ModelIndex.Job, AtomicBoolean> running = new ConcurrentHashMap<>();
    /** The jobs of {@link #running} that have a thread; the others wait in the pool's queue. */
    private final Set<ModelIndex.Job> executing = ConcurrentHashMap.newKeySet();

    private final AtomicLong unreadableModelRecords = new AtomicLong();
    private final int maxJobs;
    private final Semaphore slots;
    /** Models created later cannot be orphans of an earlier run of this node (they may be about to start). */
    private final long startedAtMillis = System.currentTimeMillis();

    private final TimeValue sweepInterval;
    /** Where jobs spill their corpus ({@link CorpusFile}): the node's temporary directory. */
    private final Path tmpDir;

    private volatile Scheduler.Cancellable periodicSweeps;

    public TrainingJobs(
            Client client,
            ClusterService clusterService,
            ThreadPool threadPool,
            ModelIndex models,
            CompressCounters counters,
            int maxJobs,
            TimeValue sweepInterval,
            Path tmpDir) {
        this.client = client;
        this.maxJobs = maxJobs;
        this.slots = new Semaphore(maxJobs);
        this.clusterService = clusterService;
        this.threadPool = threadPool;
        this.models = models;
        this.counters = counters;
        this.sweepInterval = sweepInterval;
        this.tmpDir = tmpDir;
        // a node starting: the corpus files of a JVM that died with its jobs would fill the disk, run after run
        CorpusFile.removeLeftovers(tmpDir);
        clusterService.addListener(this);
    }

    /** Jobs of this node that run on a thread of the training pool. */
    public int runningCount() {
        return executing.size();
    }

    /** Jobs of this node accepted but still waiting for a thread of the training pool. */
    public int queuedCount() {
        return Math.max(0, running.size() - executing.size());
    }

    /**
     * Whether this node runs (or has queued) a job of {@code modelId}, whichever document it was
     * started for: a model is only ended or deleted without its job's consent when this is false on
     * the model's node.
     */
    public boolean runs(String modelId) {
        return running.keySet().stream().anyMatch(job -> job.modelId().equals(modelId));
    }

    /**
     * One of this node's {@code compress.training.max_jobs_per_node} training slots, taken before the
     * model document is written and given back once: when the job's work is done, just before its
     * final state is written, or when the job does not start. Placement on the coordinating node counts the models in
     * {@code training} per node, but two requests can both count a free slot before either writes
     * its model; only this node can take its slots one at a time.
     */
    public final class Slot implements Releasable {
        private final AtomicBoolean held = new AtomicBoolean(true);
        private volatile Releasable heap = () -> {};

        private Slot() {}

        /** Gives {@code reserved} (the job's heap) back with the slot. */
        void hold(Releasable reserved) {
            this.heap = reserved;
        }

        @Override
        public void close() {
            if (held.compareAndSet(true, false)) {
                slots.release();
                heap.close();
            }
        }
    }

    /**
     * Takes a training slot of this node; all taken, a 429, whether the jobs that hold them run or
     * wait for a thread, so no job beyond the limit waits in the pool's queue in {@code training}.
     */
    public Slot reserve() {
        if (slots.tryAcquire() == false) {
            throw new OpenSearchStatusException(
                    "node [" + clusterService.localNode().getName() + "] already runs " + maxJobs
                            + " training job(s) ([compress.training.max_jobs_per_node])" + RETRY,
                    RestStatus.TOO_MANY_REQUESTS);
        }
        return new Slot();
    }

    /** Training slots of this node now free. */
    public int freeSlots() {
        return slots.availablePermits();
    }

    /**
     * Starts {@code job} (its model document exists, state {@code training}) in the background on
     * {@code slot}. The job counts as running until its final state is written, so no sweep takes a
     * model whose result is being stored for an orphan. The slot goes back just before that write,
     * once the job's work on this node is done: whoever sees the model's final state and sends the
     * next request finds the slot free. The job is registered with {@code taskManager} as a
     * {@link TrainingTask} until then.
     */
    public void start(Slot slot, ModelIndex.Job job, TrainSpec spec, int inputDim, TaskManager taskManager) {
        AtomicBoolean cancelled = new AtomicBoolean();
        running.put(job, cancelled);
        Task task = taskManager.register(
                "transport",
                TrainingTask.ACTION,
                new TrainingTaskRequest(job.modelId(), () -> cancelledAsTask(job, cancelled)));
        Runnable finished = () -> {
            running.remove(job, cancelled);
            executing.remove(job);
            taskManager.unregister(task);
            slot.close(); // given back already, but for an outcome no path foresaw
        };
        try {
            threadPool.executor(THREAD_POOL).execute(() -> {
                executing.add(job);
                try {
                    run(job, spec, inputDim, cancelled, slot, finished);
                } catch (Throwable t) {
                    // an Error from the native engine too: the model must not stay training with its job gone
                    if (cancelled.get() && t instanceof CancellationException) {
                        logger.info("training model [{}] stopped: {}", job.modelId(), t.getMessage());
                    } else {
                        logger.warn("training model [" + job.modelId() + "] failed", t);
                    }
                    slot.close();
                    failJob(job, cancelled.get() ? "cancelled" : describe(t), finished);
                    if (t instanceof VirtualMachineError fatal) {
                        throw fatal;
                    }
                }
            });
        } catch (RuntimeException rejected) {
            slot.close();
            failJob(
                    job,
                    "no training slot on node [" + clusterService.localNode().getName() + "]: " + rejected.getMessage(),
                    finished);
        }
    }

    private void run(
            ModelIndex.Job job, TrainSpec spec, int inputDim, AtomicBoolean cancelled, Slot slot, Runnable finished)
            throws Exception {
        IndexDataReader reader = new IndexDataReader(client);
        // polls for a cancel from the start: reading a large corpus takes long too
        ProgressReporter progress = new ProgressReporter(job, cancelled, spec);
        // on the training node: the node that took the request cannot see this disk
        CorpusFile.requireRoom(tmpDir, spec.corpusIndex(), reader.count(spec.corpusIndex()), inputDim);
        Trained trained;
        // the file goes when training ends, whatever the outcome, before the model is stored
        try (CorpusFile corpusFile = CorpusFile.create(tmpDir, inputDim)) {
            reader.vectors(spec.corpusIndex(), IndexDataReader.ID, spec.corpusVectorField(), inputDim, (id, vector) -> {
                stopIfRequested(progress);
                corpusFile.append(id, vector);
            });
            trained = train(spec, inputDim, reader, corpusFile.map(), progress, cancelled);
        }
        slot.close();
        models.completeTraining(
                job,
                trained.modelFile(),
                trained.done(),
                cancelled::get,
                ActionListener.wrap(
                        completion -> {
                            switch (completion) {
                                case CREATED -> {
                                    logger.info("model [{}] created", job.modelId());
                                    counters.trainingCompleted();
                                    finished.run();
                                }
                                case CANCELLED -> failJob(job, "cancelled", finished);
                                case NO_LONGER_TRAINING -> {
                                    logger.info(
                                            "model [{}] was ended or replaced while its job ran; the job's result is dropped",
                                            job.modelId());
                                    counters.trainingFailed();
                                    finished.run();
                                }
                            }
                        },
                        e -> failJob(job, describe(e), finished)));
    }

    /** A trained model's file and the model document's final fields. */
    private record Trained(byte[] modelFile, Map<String, Object> done) {}

    private Trained train(
            TrainSpec spec,
            int inputDim,
            IndexDataReader reader,
            VectorRows corpus,
            ProgressReporter progress,
            AtomicBoolean cancelled)
            throws Exception {
        IndexDataReader.QueryVectors read =
                reader.queries(spec.queriesIndex(), spec.queriesIdField(), spec.queriesVectorField(), inputDim);
        VectorSet queries = read.vectors();
        stopIfRequested(progress);
        IndexDataReader.JudgmentRows rows = reader.judgments(spec);
        UsableJudgments usable = UsableJudgments.of(rows.all(), corpus, queries);
        Qrels judgments = usable.qrels();
        if (judgments.queryIds().isEmpty()) {
            throw new IllegalArgumentException(
                    "no usable judgments: none has a rating > 0 for a query and a document that both have vectors");
        }
        Map<String, Object> judgmentCounts = new LinkedHashMap<>();
        judgmentCounts.put("query_vectors_without_id", read.withoutId());
        judgmentCounts.put("unreadable_rows", rows.unreadable());
        judgmentCounts.putAll(usable.counts());
        QuerySplit split = split(rows, spec, corpus, queries, usable, judgmentCounts);
        Trainer trainer = TrainerFactory.create(
                spec.method(),
                spec.dimensions(),
                spec.parameters(),
                spec.split().seed(),
                spec.device());
        stopIfRequested(progress);
        // DJL extracts and maps libtorch: only the plugin's own permissions may count
        TrainingRun.Outcome outcome = AccessController.doPrivilegedChecked(
                () -> TrainingRun.run(spec.corpusIndex(), corpus, queries, judgments, split, trainer, progress));
        progress.close();
        if (cancelled.get()) {
            throw new IllegalStateException("cancelled");
        }
        Map<String, Object> done = new LinkedHashMap<>();
        done.put(ModelFields.STATE, ModelState.CREATED.jsonName());
        // the trainer's own record of its choices (a query mask's cross-validation, say) is otherwise only in the file
        Map<String, Object> evaluation = new LinkedHashMap<>(outcome.evaluation());
        evaluation.put("training_parameters", outcome.artifact().metadata().trainingParameters());
        done.put(ModelFields.EVALUATION, evaluation);
        done.put(
                ModelFields.PROGRESS,
                progress.snapshot(Map.of(
                        "train_queries",
                        split.train().size(),
                        "validation_queries",
                        split.validation().size(),
                        "test_queries",
                        split.test().size(),
                        // so that the held-out figures can be measured again, and the queries kept out of later tests
                        "test_query_ids",
                        split.test().stream().sorted().toList(),
                        "judgments",
                        judgmentCounts,
                        "corpus_documents",
                        corpus.size(),
                        "device",
                        String.valueOf(outcome.report().device()))));
        done.put(ModelFields.UPDATED_AT, System.currentTimeMillis());
        return new Trained(ModelFile.toBytes(outcome.artifact()), done);
    }

    /** Ends the job before its next phase when a cancel was requested, the model ended, or the node stops. */
    private static void stopIfRequested(ProgressReporter progress) {
        if (progress.stopRequested()) {
            throw new CancellationException("cancelled");
        }
    }

    /** The split; with a split field, also counts into {@code counts} the judged pairs marked neither train nor test. */
    private static QuerySplit split(
            IndexDataReader.JudgmentRows rows,
            TrainSpec spec,
            VectorRows corpus,
            VectorSet queries,
            UsableJudgments judgments,
            Map<String, Object> counts) {
        TrainSpec.SplitSpec s = spec.split();
        if (s.field() == null) {
            return QuerySplit.ofFractions(judgments.qrels(), s.validationFraction(), s.testFraction(), s.seed());
        }
        UsableJudgments trainRows = UsableJudgments.of(rows.train(), corpus, queries);
        UsableJudgments testRows = UsableJudgments.of(rows.test(), corpus, queries);
        counts.put("pairs_in_neither_split", judgments.pairs() - trainRows.pairs() - testRows.pairs());
        Qrels train = trainRows.qrels();
        Qrels test = testRows.qrels();
        if (train.queryIds().isEmpty() || test.queryIds().isEmpty()) {
            throw new IllegalArgumentException(
                    "[split.field] [" + s.field() + "] must mark usable judgments as [train] and as [test]");
        }
        return QuerySplit.ofDatasetSplits(train, test, s.validationFraction(), s.seed());
    }

    /** Stops every job of this node and its sweeps, e.g. when the node shuts down. */
    public void cancelAll() {
        Scheduler.Cancellable sweeps = periodicSweeps;
        if (sweeps != null) {
            sweeps.cancel();
        }
        running.values().forEach(flag -> flag.set(true));
    }

    /**
     * A {@code _tasks} cancel of the job's task: the model gets the same flag as from {@code _cancel}
     * (sent as the plugin, not as the caller, who holds the task permission), so a job that cannot
     * stop early is refused {@code created} as well; once the flag is written (or could not be), the
     * job stops at its next check. Stopped first, the job could be failed before the flag landed,
     * and the flag would then be refused: the model would not say it was cancelled.
     */
    private void cancelledAsTask(ModelIndex.Job job, AtomicBoolean cancelled) {
        ThreadContext threadContext = threadPool.getThreadContext();
        try (ThreadContext.StoredContext ignored = threadContext.stashContext()) {
            client.execute(
                    ModelActions.CANCEL,
                    new ModelIdRequest(job.modelId(), false),
                    ActionListener.wrap(
                            answer -> {
                                cancelled.set(true);
                                logger.info("model [{}]: training cancelled through its task", job.modelId());
                            },
                            e -> {
                                cancelled.set(true);
                                logger.debug("model [" + job.modelId() + "]: cancel flag not written", e);
                            }));
        }
    }

    /** A job of this node ends without a model: counted, then as {@link #fail}. */
    private void failJob(ModelIndex.Job job, String reason, Runnable then) {
        counters.trainingFailed();
        fail(job, reason, then);
    }

    /** Marks the job's model failed (unless it ended or was replaced meanwhile), then runs {@code then} in any case. */
    private void fail(ModelIndex.Job job, String reason, Runnable then) {
        models.failTraining(job, reason, ActionListener.wrap(ok -> then.run(), e -> {
            logger.warn("could not mark model [" + job.modelId() + "] failed", e);
            then.run();
        }));
    }

    /** A problem of the user's data is its message alone; anything else keeps its class, which says more. */
    private static String describe(Throwable e) {
        return e instanceof IllegalArgumentException
                ? e.getMessage()
                : e.getClass().getSimpleName() + ": " + e.getMessage();
    }

    @Override
    public void clusterChanged(ClusterChangedEvent event) {
        if (modelIndexActive(event.state()) == false) {
            return;
        }
        // the first event with the model index usable: sweep this node's models once, then on the timer
        boolean first = periodicSweeps == null;
        if (first) {
            periodicSweeps =
                    threadPool.scheduleWithFixedDelay(this::sweepPeriodically, sweepInterval, ThreadPool.Names.GENERIC);
        }
        boolean sweepOthers = event.localNodeClusterManager()
                && (event.nodesRemoved() || event.previousState().nodes().isLocalNodeElectedClusterManager() == false);
        if (sweepOthers || first) {
            sweep(event.state(), sweepOthers, startedAtMillis);
        }
    }

    /**
     * The sweeps on events can miss a model: its job never started (the coordinating node died
     * before asking), writing {@code failed} failed, or a node left while the model index was
     * unavailable. So every node also sweeps on a timer.
     */
    private void sweepPeriodically() {
        ClusterState state = clusterService.state();
        if (modelIndexActive(state)) {
            sweep(
                    state,
                    state.nodes().isLocalNodeElectedClusterManager(),
                    System.currentTimeMillis() - START_GRACE_MILLIS);
        }
    }

    /**
     * Fails models in {@code training} whose node is gone ({@code sweepOthers}, on the elected
     * cluster manager) and this node's models created before {@code ownCutoffMillis} that it is
     * not running.
     */
    private void sweep(ClusterState state, boolean sweepOthers, long ownCutoffMillis) {
        String local = state.nodes().getLocalNodeId();
        models.trainingModels(
                training -> {
                    // the nodes now, not when the sweep began: one may have joined while the search ran
                    Set<String> nodes =
                            clusterService.state().nodes().getNodes().keySet();
                    for (ModelRecord model : training) {
                        try {
                            sweep(model, nodes, local, sweepOthers, ownCutoffMillis);
                        } catch (ModelRecord.UnreadableModelException e) {
                            // one such document must not keep the sweep from every model after it
                            unreadableModelRecords.incrementAndGet();
                            logger.warn(
                                    "the training sweep skips a model it cannot read: {}; _cancel fails it, DELETE removes it",
                                    e.getMessage());
                        }
                    }
                },
                e -> logger.warn("could not check models in training", e));
    }

    private void sweep(ModelRecord model, Set<String> nodes, String local, boolean sweepOthers, long ownCutoffMillis) {
        if (model.state() != ModelState.TRAINING) {
            return; // found by a search on the state, but read here as it is, so one that cannot be read is counted
        }
        String node = model.nodeId();
        ModelIndex.Job job = model.job();
        if (sweepOthers && nodes.contains(node) == false) {
            fail(job, "node [" + node + "] left the cluster while training", () -> {});
        } else if (local.equals(node)
                && model.createdAtMillis() < ownCutoffMillis
                && running.containsKey(job) == false) {
            // the search may predate the job's final write; failTraining reads the model again
            fail(job, "node [" + node + "] is not running its job: it restarted, or the job never started", () -> {});
        }
    }

    /**
     * Model documents in {@code training} that sweeps of this node skipped because a field they read
     * ({@code node_id}, {@code created_at}, {@code state}) is missing or of the wrong type; counted at
     * each skip, so a count that keeps growing means such a document is still there.
     */
    public long unreadableModelRecords() {
        return unreadableModelRecords.get();
    }

    private static boolean modelIndexActive(ClusterState state) {
        IndexRoutingTable routing = state.routingTable().index(ModelIndex.NAME);
        return routing != null && routing.allPrimaryShardsActive();
    }

    /**
     * The trained epochs a job is set to run, from the total its trainer reports with each epoch.
     * Trainers report that, but for the query-mask predictor, which counts in it the untrained start
     * of each tau of its grid ({@code (epochs + 1) x taus}): so many starts, one per
     * {@code epochs + 1}, are taken off, {@code epochs} being the request's or the predictor's
     * default (the one {@link TrainerFactory} starts from).
     */
    static int plannedEpochs(TrainSpec spec, int reportedTotal) {
        if (QueryMaskTrainer.METHOD.equals(spec.method()) == false) {
            return reportedTotal;
        }
        Object epochs = spec.parameters().get("epochs");
        int perTau = epochs instanceof Number n
                ? n.intValue()
                : QueryMaskConfig.paper(0.3).epochs();
        return reportedTotal - reportedTotal / (perTau + 1);
    }

    /**
     * Whether {@code stats}, reported after epochs up to {@code highestSoFar}, is an epoch trained
     * (not an untrained start nor a repeat). Epoch 0 is the untrained start; a number not above
     * every earlier one repeats an epoch (a tau's or a stage's summary of its best epoch, a stage
     * starting where the previous one ended). The query-mask predictor numbers the untrained start
     * of each later tau on from the previous tau's epochs: that one has a {@code tau} but no
     * training loss ({@code total}).
     */
    static boolean trainedEpoch(EpochStats stats, int highestSoFar) {
        if (stats.epoch() <= highestSoFar) {
            return false;
        }
        Map<String, Double> losses = stats.losses();
        return losses == null || losses.containsKey("tau") == false || losses.containsKey("total");
    }

    /**
     * Writes each epoch into the model document and polls the document for a cancel request. One
     * write is in flight at a time (epochs finishing meanwhile go out together in the next), and
     * {@link #close} waits for it, so no progress write lands after the model's final state.
     *
     * <p>{@code history} holds every epoch the trainer reports; {@code epochs_done} counts those
     * trained ({@link #trainedEpoch}) and {@code total_epochs} those planned ({@link #plannedEpochs}),
     * so a 3-epoch job reports 3 of 3 when done, not its untrained start and summaries too. {@code
     * phase} is the work before the epochs (hard-negative mining, the corpus PCA) or after them ({@link
     * TrainingListener#onPhase}): its name and units done of total.
     */
    private final class ProgressReporter implements TrainingListener {
        private static final long CLOSE_WAIT_MILLIS = 30_000;

        private final ModelIndex.Job job;
        private final AtomicBoolean cancelled;
        private final TrainSpec spec;
        private final List<Map<String, Object>> history = new ArrayList<>();
        /** Guarded by {@code history}, as the counts are read with it. */
        private int trainedEpochs;

        private int highestEpoch;
        private int totalEpochs;
        /** The trainer's latest {@link #onPhase}, or null before any; guarded by {@code history}. */
        private Map<String, Object> phase;

        private volatile long lastPoll = System.nanoTime();
        private boolean writing;
        private boolean pending;
        private boolean closed;

        ProgressReporter(ModelIndex.Job job, AtomicBoolean cancelled, TrainSpec spec) {
            this.job = job;
            this.cancelled = cancelled;
            this.spec = spec;
        }

        @Override
        public void onEpoch(EpochStats stats, int total) {
            Map<String, Object> epoch = new LinkedHashMap<>();
            epoch.put("epoch", stats.epoch());
            if (stats.losses().containsKey("total")) { // a tau's summary has none
                epoch.put("loss", stats.losses().get("total"));
            }
            // the loss's terms, and a query mask's tau and validation KL: what tells its entries apart
            stats.losses().forEach((name, value) -> {
                if (name.equals("total") == false) {
                    epoch.put(name, value);
                }
            });
            epoch.put("validation_ndcg@10", stats.validationNdcg());
            epoch.put("active_triplet_ratio", stats.activeTripletRatio());
            epoch.put("train_seconds", stats.trainSeconds());
            synchronized (history) {
                history.add(epoch);
                totalEpochs = plannedEpochs(spec, total);
                if (trainedEpoch(stats, highestEpoch)) {
                    trainedEpochs++;
                }
                highestEpoch = Math.max(highestEpoch, stats.epoch());
            }
            publish();
        }

        @Override
        public void onPhase(String name, int done, int total) {
            synchronized (history) {
                Map<String, Object> latest = new LinkedHashMap<>();
                latest.put("name", name);
                latest.put("done", done);
                latest.put("total", total);
                phase = Collections.unmodifiableMap(latest); // snapshots share it
            }
            publish();
        }

        /** Starts a write of the progress, or marks one pending behind the write in flight. */
        private void publish() {
            synchronized (this) {
                if (closed) {
                    return;
                }
                if (writing) {
                    pending = true;
                    return;
                }
                writing = true;
            }
            write();
        }

        private void write() {
            models.updateTraining(
                    job,
                    Map.of(
                            ModelFields.PROGRESS,
                            snapshot(Map.of()),
                            ModelFields.UPDATED_AT,
                            System.currentTimeMillis()),
                    ActionListener.wrap(
                            owned -> {
                                if (owned == false) {
                                    cancelled.set(true); // the model ended or was replaced: stop at the next epoch
                                }
                                written();
                            },
                            e -> {
                                logger.debug("progress update of [" + job.modelId() + "] failed", e);
                                stopIfGone(e);
                                written();
                            }));
        }

        private void written() {
            synchronized (this) {
                if (pending == false || closed) {
                    writing = false;
                    notifyAll();
                    return;
                }
                pending = false;
            }
            write();
        }

        /** Stops progress writes and waits (bounded) for the one in flight. */
        synchronized void close() throws InterruptedException {
            closed = true;
            long deadline = System.currentTimeMillis() + CLOSE_WAIT_MILLIS;
            for (long left = CLOSE_WAIT_MILLIS; writing && left > 0; left = deadline - System.currentTimeMillis()) {
                wait(left);
            }
        }

        @Override
        public boolean stopRequested() {
            long now = System.nanoTime();
            if (cancelled.get() == false && now - lastPoll > CANCEL_POLL_NANOS) {
                lastPoll = now;
                // a model failed by a sweep, or deleted and trained again, also stops the job
                models.get(
                        job.modelId(),
                        ActionListener.wrap(
                                m -> {
                                    if (m.cancelRequested() || job.owns(m) == false) {
                                        cancelled.set(true);
                                    }
                                },
                                this::stopIfGone));
            }
            return cancelled.get();
        }

        /** A model deleted while its job runs (or its index gone) has nowhere to put the result: stop. */
        private void stopIfGone(Exception e) {
            if (ExceptionsHelper.unwrapCause(e) instanceof ResourceNotFoundException) {
                cancelled.set(true);
            }
        }

        Map<String, Object> snapshot(Map<String, Object> extra) {
            Map<String, Object> p = new LinkedHashMap<>(extra);
            synchronized (history) {
                p.put("epochs_done", trainedEpochs);
                p.put("total_epochs", totalEpochs);
                p.put("history", List.copyOf(history));
                if (phase != null) {
                    p.put("phase", phase);
                }
            }
            return p;
        }
    }
}
