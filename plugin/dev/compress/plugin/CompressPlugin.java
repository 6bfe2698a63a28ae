package dev.compress.plugin;

import dev.compress.plugin.codec.CompressCodecService;
import dev.compress.plugin.inference.EvictModelAction;
import dev.compress.plugin.inference.IndexModelLoader;
import dev.compress.plugin.inference.ModelCache;
import dev.compress.plugin.inference.RestClearModelCacheHandler;
import dev.compress.plugin.inference.SearchPoolInference;
import dev.compress.plugin.inference.TransportEvictModelAction;
import dev.compress.plugin.info.InfoAction;
import dev.compress.plugin.info.RestInfoAction;
import dev.compress.plugin.info.TransportInfoAction;
import dev.compress.plugin.ingest.CompressProcessor;
import dev.compress.plugin.ingest.CompressProcessorFactory;
import dev.compress.plugin.mapper.CompressedVectorFieldMapper;
import dev.compress.plugin.mapper.HiddenSettingGuard;
import dev.compress.plugin.mapper.RestoreSettingsGuard;
import dev.compress.plugin.model.ModelIndex;
import dev.compress.plugin.model.action.ModelActions;
import dev.compress.plugin.model.action.RestCancelTrainingHandler;
import dev.compress.plugin.model.action.RestDeleteModelHandler;
import dev.compress.plugin.model.action.RestGetModelHandler;
import dev.compress.plugin.model.action.RestSearchModelsHandler;
import dev.compress.plugin.model.action.TransportCancelTrainingAction;
import dev.compress.plugin.model.action.TransportDeleteModelAction;
import dev.compress.plugin.model.action.TransportGetModelAction;
import dev.compress.plugin.model.action.TransportSearchModelsAction;
import dev.compress.plugin.query.AdaptQueryVectorAction;
import dev.compress.plugin.query.CompressedKnnQueryBuilder;
import dev.compress.plugin.query.CompressedKnnQueryParser;
import dev.compress.plugin.query.QueryPhaseCounter;
import dev.compress.plugin.query.TransportAdaptQueryVectorAction;
import dev.compress.plugin.query.mask.LearnedMaskAction;
import dev.compress.plugin.query.mask.TransportLearnedMaskAction;
import dev.compress.plugin.stats.CompressCounters;
import dev.compress.plugin.stats.RestStatsHandler;
import dev.compress.plugin.stats.StatsAction;
import dev.compress.plugin.stats.TransportStatsAction;
import dev.compress.plugin.train.RestTrainModelHandler;
import dev.compress.plugin.train.TrainingJobs;
import dev.compress.plugin.train.TransportJobRunningAction;
import dev.compress.plugin.train.TransportRunTrainingAction;
import dev.compress.plugin.train.TransportTrainModelAction;
import dev.compress.plugin.warmup.RestWarmupHandler;
import dev.compress.plugin.warmup.TransportWarmupAction;
import dev.compress.plugin.warmup.WarmupAction;
import dev.compress.training.engine.DjlRuntime;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.opensearch.action.ActionRequest;
import org.opensearch.action.support.ActionFilter;
import org.opensearch.cluster.metadata.IndexMetadata;
import org.opensearch.cluster.metadata.IndexNameExpressionResolver;
import org.opensearch.cluster.node.DiscoveryNodes;
import org.opensearch.cluster.service.ClusterService;
import org.opensearch.common.SetOnce;
import org.opensearch.common.settings.ClusterSettings;
import org.opensearch.common.settings.IndexScopedSettings;
import org.opensearch.common.settings.Setting;
import org.opensearch.common.settings.Settings;
import org.opensearch.common.settings.SettingsFilter;
import org.opensearch.core.action.ActionResponse;
import org.opensearch.core.common.io.stream.NamedWriteableRegistry;
import org.opensearch.core.xcontent.NamedXContentRegistry;
import org.opensearch.env.Environment;
import org.opensearch.env.NodeEnvironment;
import org.opensearch.index.IndexModule;
import org.opensearch.index.IndexSettings;
import org.opensearch.index.codec.CodecServiceFactory;
import org.opensearch.index.mapper.Mapper;
import org.opensearch.indices.SystemIndexDescriptor;
import org.opensearch.ingest.Processor;
import org.opensearch.plugins.ActionPlugin;
import org.opensearch.plugins.EnginePlugin;
import org.opensearch.plugins.IngestPlugin;
import org.opensearch.plugins.MapperPlugin;
import org.opensearch.plugins.Plugin;
import org.opensearch.plugins.SearchPlugin;
import org.opensearch.plugins.SystemIndexPlugin;
import org.opensearch.repositories.RepositoriesService;
import org.opensearch.rest.RestController;
import org.opensearch.rest.RestHandler;
import org.opensearch.script.ScriptService;
import org.opensearch.threadpool.ExecutorBuilder;
import org.opensearch.threadpool.FixedExecutorBuilder;
import org.opensearch.threadpool.ThreadPool;
import org.opensearch.transport.client.Client;
import org.opensearch.watcher.ResourceWatcherService;

/** Entry point of the embedding-compression plugin: registers its settings, actions and extensions. */
public class CompressPlugin extends Plugin
        implements ActionPlugin, IngestPlugin, MapperPlugin, SearchPlugin, EnginePlugin, SystemIndexPlugin {

    /** The index settings with which the k-NN plugin and neural-search supply an index's codec. */
    private static final List<String> NEIGHBOUR_CODEC_SETTINGS = List.of("index.knn", "index.sparse");

    private TrainingJobs trainingJobs;
    private final SetOnce<ModelCache> modelCache = new SetOnce<>();
    private final SetOnce<ClusterService> clusterService = new SetOnce<>();
    private final SetOnce<IndexNameExpressionResolver> indexNameExpressionResolver = new SetOnce<>();
    /**
     * Exists before the components: the query and the processor are registered first, and count
     * into it from the start. Guice hands it to the stats action.
     */
    private final CompressCounters counters = new CompressCounters();

    @Override
    public List<Setting<?>> getSettings() {
        return CompressSettings.all();
    }

    @Override
    public List<ActionFilter> getActionFilters() {
        // asked before createComponents: the guard reads the cluster state and the resolver when a request comes
        return List.of(
                new HiddenSettingGuard(() -> clusterService.get().state(), indexNameExpressionResolver::get),
                new RestoreSettingsGuard());
    }

    @Override
    public Collection<Object> createComponents(
            Client client,
            ClusterService clusterService,
            ThreadPool threadPool,
            ResourceWatcherService resourceWatcherService,
            ScriptService scriptService,
            NamedXContentRegistry xContentRegistry,
            Environment environment,
            NodeEnvironment nodeEnvironment,
            NamedWriteableRegistry namedWriteableRegistry,
            IndexNameExpressionResolver indexNameExpressionResolver,
            Supplier<RepositoriesService> repositoriesServiceSupplier) {
        configureDjl(environment);
        this.clusterService.set(clusterService);
        this.indexNameExpressionResolver.set(indexNameExpressionResolver);
        ModelIndex models = new ModelIndex(client, clusterService);
        Settings settings = environment.settings();
        trainingJobs = new TrainingJobs(
                client,
                clusterService,
                threadPool,
                models,
                counters,
                CompressSettings.TRAINING_MAX_JOBS_PER_NODE.get(settings),
                CompressSettings.TRAINING_SWEEP_INTERVAL.get(settings),
                environment.tmpDir());
        ModelCache cache = createModelCache(models, threadPool, settings);
        clusterService
                .getClusterSettings()
                .addSettingsUpdateConsumer(ModelCache.MAX_SIZE, size -> cache.resize(size.getBytes()));
        return List.of(models, trainingJobs, cache, new SearchPoolInference(cache, threadPool), counters);
    }

    /** A closing node stops its training jobs; the models they leave behind are failed by the sweep. */
    @Override
    public void close() {
        if (trainingJobs != null) {
            trainingJobs.cancelAll();
        }
    }

    /** The node's model cache; processors reach it through {@link #modelCache}, as they are registered before components exist. */
    private ModelCache createModelCache(ModelIndex modelIndex, ThreadPool threadPool, Settings settings) {
        long maxBytes = ModelCache.MAX_SIZE.get(settings).getBytes();
        modelCache.set(new ModelCache(
                new IndexModelLoader(modelIndex, threadPool.generic()),
                maxBytes,
                threadPool.getThreadContext(),
                counters));
        return modelCache.get();
    }

    @Override
    public Map<String, Processor.Factory> getProcessors(Processor.Parameters parameters) {
        return Map.of(CompressProcessor.TYPE, new CompressProcessorFactory(modelCache::get, counters));
    }

    /** Model cache and query-time adaptation actions (the evict one also behind the cache-clearing endpoints). */
    private static List<ActionHandler<? extends ActionRequest, ? extends ActionResponse>> inferenceActions() {
        return List.of(
                new ActionHandler<>(EvictModelAction.INSTANCE, TransportEvictModelAction.class),
                new ActionHandler<>(AdaptQueryVectorAction.INSTANCE, TransportAdaptQueryVectorAction.class),
                new ActionHandler<>(LearnedMaskAction.INSTANCE, TransportLearnedMaskAction.class));
    }

    /** Sets DJL's properties from node settings; the engine itself loads on first use. */
    private static void configureDjl(Environment environment) {
        Settings settings = environment.settings();
        String configured = CompressSettings.DJL_CACHE_DIR.get(settings);
        Path cacheDir = configured.isEmpty() ? environment.dataFiles()[0].resolve("compress-djl") : Path.of(configured);
        DjlRuntime.configure(new DjlRuntime.Configuration(
                cacheDir,
                CompressSettings.DJL_NUM_THREADS.get(settings),
                CompressSettings.DJL_NUM_INTEROP_THREADS.get(settings)));
    }

    @Override
    public List<ExecutorBuilder<?>> getExecutorBuilders(Settings settings) {
        int jobs = CompressSettings.TRAINING_MAX_JOBS_PER_NODE.get(settings);
        return List.of(new FixedExecutorBuilder(
                settings, TrainingJobs.THREAD_POOL, jobs, jobs, "thread_pool." + TrainingJobs.THREAD_POOL));
    }

    @Override
    public Collection<SystemIndexDescriptor> getSystemIndexDescriptors(Settings settings) {
        return List.of(new SystemIndexDescriptor(
                ModelIndex.NAME, "compression models: state documents and chunked model files"));
    }

    @Override
    public Map<String, Mapper.TypeParser> getMappers() {
        return Map.of(CompressedVectorFieldMapper.CONTENT_TYPE, CompressedVectorFieldMapper.PARSER);
    }

    /**
     * Our codec service only for indexes created with {@code index.compress: true}, never for a system
     * or hidden index: an index has one codec service, and every other index may belong to another plugin.
     * An index that also asks for the k-NN plugin's or neural-search's codec is refused with a 400 that
     * names both settings (OpenSearch's own refusal of a second codec service is a 500 naming plugins).
     */
    @Override
    public Optional<CodecServiceFactory> getCustomCodecServiceFactory(IndexSettings indexSettings) {
        if (ownsIndex(indexSettings) == false) {
            return Optional.empty();
        }
        for (String neighbour : NEIGHBOUR_CODEC_SETTINGS) {
            if (indexSettings.getSettings().getAsBoolean(neighbour, false)) {
                throw new IllegalArgumentException(
                        "index [" + indexSettings.getIndex().getName() + "] cannot have both ["
                                + CompressSettings.INDEX_COMPRESS.getKey() + "] and [" + neighbour
                                + "]: each gives the index its own codec, and an index has one");
            }
        }
        return Optional.of(CompressCodecService::new);
    }

    static boolean ownsIndex(IndexSettings indexSettings) {
        Settings settings = indexSettings.getSettings();
        return CompressSettings.INDEX_COMPRESS.get(settings)
                && indexSettings.getIndexMetadata().isSystem() == false
                && IndexMetadata.INDEX_HIDDEN_SETTING.get(settings) == false;
    }

    /** On our indexes, the node's query counts are taken once per completed shard query phase. */
    @Override
    public void onIndexModule(IndexModule indexModule) {
        if (CompressSettings.INDEX_COMPRESS.get(indexModule.getSettings())) {
            indexModule.addSearchOperationListener(new QueryPhaseCounter(counters));
        }
    }

    @Override
    public List<QuerySpec<?>> getQueries() {
        return List.of(new QuerySpec<>(
                CompressedKnnQueryBuilder.NAME,
                in -> new CompressedKnnQueryBuilder(in, counters),
                parser -> CompressedKnnQueryParser.parse(parser, counters)));
    }

    @Override
    public List<ActionHandler<? extends ActionRequest, ? extends ActionResponse>> getActions() {
        List<ActionHandler<? extends ActionRequest, ? extends ActionResponse>> actions = new ArrayList<>(List.of(
                new ActionHandler<>(InfoAction.INSTANCE, TransportInfoAction.class),
                new ActionHandler<>(ModelActions.TRAIN, TransportTrainModelAction.class),
                new ActionHandler<>(ModelActions.RUN_TRAINING, TransportRunTrainingAction.class),
                new ActionHandler<>(ModelActions.JOB_RUNNING, TransportJobRunningAction.class),
                new ActionHandler<>(ModelActions.GET, TransportGetModelAction.class),
                new ActionHandler<>(ModelActions.SEARCH, TransportSearchModelsAction.class),
                new ActionHandler<>(ModelActions.DELETE, TransportDeleteModelAction.class),
                new ActionHandler<>(ModelActions.CANCEL, TransportCancelTrainingAction.class),
                new ActionHandler<>(StatsAction.INSTANCE, TransportStatsAction.class),
                new ActionHandler<>(WarmupAction.INSTANCE, TransportWarmupAction.class)));
        actions.addAll(inferenceActions());
        return actions;
    }

    @Override
    public List<RestHandler> getRestHandlers(
            Settings settings,
            RestController restController,
            ClusterSettings clusterSettings,
            IndexScopedSettings indexScopedSettings,
            SettingsFilter settingsFilter,
            IndexNameExpressionResolver indexNameExpressionResolver,
            Supplier<DiscoveryNodes> nodesInCluster) {
        return List.of(
                new RestInfoAction(),
                new RestTrainModelHandler(),
                new RestGetModelHandler(),
                new RestSearchModelsHandler(),
                new RestDeleteModelHandler(),
                new RestCancelTrainingHandler(),
                new RestClearModelCacheHandler(),
                new RestStatsHandler(),
                new RestWarmupHandler());
    }
}
