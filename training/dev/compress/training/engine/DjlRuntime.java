package dev.compress.training.engine;

import ai.djl.Device;
import ai.djl.engine.Engine;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The process-wide DJL PyTorch runtime: configured once (offline, a cache directory the process
 * owns, libtorch thread counts), loaded lazily, and probed for the devices it sees.
 *
 * <p>DJL reads its configuration from system properties when the engine first loads, so
 * {@link #configure} must run before anything touches DJL; later calls are ignored.
 */
public final class DjlRuntime {

    public static final String ENGINE_NAME = "PyTorch";

    private static Configuration configuration;
    private static EngineStatus status;

    private DjlRuntime() {}

    /** Runtime settings; {@code cacheDir} holds the extracted libtorch (about 430 MB). */
    public record Configuration(Path cacheDir, int numThreads, int numInteropThreads) {}

    /**
     * Sets DJL's system properties. An explicit {@code DJL_CACHE_DIR} already present in the
     * system properties or the environment wins over {@code cacheDir}, so test JVMs and operators
     * can share one extracted libtorch across many nodes.
     */
    public static synchronized void configure(Configuration config) {
        if (configuration != null) {
            return;
        }
        System.setProperty("ai.djl.offline", "true");
        String cacheDir = System.getProperty("DJL_CACHE_DIR", System.getenv("DJL_CACHE_DIR"));
        if (cacheDir == null || cacheDir.isBlank()) {
            cacheDir = config.cacheDir().toAbsolutePath().toString();
            System.setProperty("DJL_CACHE_DIR", cacheDir);
        }
        System.setProperty("ai.djl.pytorch.num_threads", Integer.toString(config.numThreads()));
        System.setProperty("ai.djl.pytorch.num_interop_threads", Integer.toString(config.numInteropThreads()));
        configuration = new Configuration(Path.of(cacheDir), config.numThreads(), config.numInteropThreads());
    }

    /**
     * Loads the engine on first call (extracting libtorch into the cache directory) and reports
     * what it found. Never throws: a failure to load is part of the status.
     */
    public static synchronized EngineStatus status() {
        if (status == null) {
            status = probe();
        }
        return status;
    }

    /** The loaded engine; throws {@link IllegalStateException} with the reason when it cannot load. */
    public static Engine engine() {
        EngineStatus s = status();
        if (!s.loaded()) {
            throw new IllegalStateException("DJL " + ENGINE_NAME + " engine is not available: " + s.error());
        }
        return Engine.getEngine(ENGINE_NAME);
    }

    private static EngineStatus probe() {
        String cacheDir = configuration == null
                ? System.getProperty("DJL_CACHE_DIR")
                : configuration.cacheDir().toString();
        Engine engine;
        // DJL finds engines with ServiceLoader on the context class loader; inside a host such as an
        // OpenSearch node that is the host's loader, which cannot see the engine shipped beside us.
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(DjlRuntime.class.getClassLoader());
        try {
            engine = Engine.getEngine(ENGINE_NAME);
        } catch (Throwable e) { // UnsatisfiedLinkError, EngineException, security refusals: all mean "not loaded"
            return EngineStatus.failed(ENGINE_NAME, cacheDir, describe(e));
        } finally {
            thread.setContextClassLoader(previous);
        }
        int gpus;
        String gpuNote = null;
        try {
            gpus = engine.getGpuCount();
        } catch (Throwable e) { // the CUDA probe may be refused (e.g. spawning ldconfig): that means no GPU
            gpus = 0;
            gpuNote = "GPU probe failed, assuming none: " + describe(e);
        }
        List<String> devices = new ArrayList<>();
        devices.add(Device.cpu().toString());
        for (int i = 0; i < gpus; i++) {
            devices.add(Device.gpu(i).toString());
        }
        return new EngineStatus(
                true, engine.getEngineName(), engine.getVersion(), gpus, List.copyOf(devices), cacheDir, gpuNote);
    }

    private static String describe(Throwable e) {
        StringBuilder sb = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (sb.length() > 0) {
                sb.append("; caused by ");
            }
            sb.append(t.getClass().getSimpleName()).append(": ").append(t.getMessage());
            if (t.getCause() == t) {
                break;
            }
        }
        return sb.toString();
    }
}
