package dev.compress.harness;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.hc.core5.http.HttpHost;
import org.opensearch.client.Request;
import org.opensearch.client.Response;
import org.opensearch.client.RestClient;
import org.opensearch.common.xcontent.json.JsonXContent;
import org.opensearch.core.xcontent.DeprecationHandler;
import org.opensearch.core.xcontent.NamedXContentRegistry;
import org.opensearch.core.xcontent.XContentParser;

/**
 * A real OpenSearch node from the distribution on Maven Central, with the built plugin installed
 * (and, for tests of plugin combinations, other plugins' zips before it), bound to 127.0.0.1. The build unpacks the distribution and reserves the ports; this class copies
 * the distribution, installs the plugin, and starts and stops the node by its PID. OpenSearch
 * refuses to run as root, so when the tests run as root the node runs as a system user
 * ({@value #NODE_USER}) created on first use.
 */
public final class RealNode implements AutoCloseable {

    static final String NODE_USER = "opensearch-test";
    private static final String SINGLE_NODE_CLUSTER = "compress-realnode";
    private static final String MULTI_NODE_CLUSTER = "compress-cluster";
    private static final Duration START_TIMEOUT = Duration.ofMinutes(3);

    private final Path home;
    private final int httpPort;
    private final int transportPort;
    private final boolean asRoot;
    private final String heap;
    private final String clusterName;
    private long pid = -1;
    private RestClient client;

    private RealNode(Path home, int httpPort, int transportPort, String heap, String clusterName) {
        this.home = home;
        this.httpPort = httpPort;
        this.transportPort = transportPort;
        this.heap = heap;
        this.clusterName = clusterName;
        this.asRoot = "root".equals(System.getProperty("user.name"));
    }

    private static RealNode shared;

    /**
     * The node all real-node test classes share in one test JVM: installed and started on first
     * use, stopped when the JVM exits. Starting a node is slow; one is enough.
     */
    public static synchronized RealNode shared() throws IOException, InterruptedException {
        if (shared == null) {
            RealNode node = fromBuild();
            node.start();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    node.stop();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }));
            shared = node;
        }
        return shared;
    }

    /** A fresh node directory from the system properties the build passes to failsafe. */
    public static RealNode fromBuild() throws IOException, InterruptedException {
        Path distribution = Path.of(required("realnode.distribution"));
        Path pluginZip = Path.of(required("realnode.plugin.zip"));
        Path workdir = Path.of(required("realnode.workdir"));
        Path home = workdir.resolve("opensearch");
        return install(
                distribution,
                pluginZip,
                home,
                Integer.parseInt(required("realnode.http.port")),
                Integer.parseInt(required("realnode.transport.port")),
                "768m",
                null);
    }

    /**
     * A fresh node of its own (not started) with other plugins installed before ours, in the order
     * given (a plugin that extends another comes after it), for tests of plugin combinations. It has
     * its own directory under the work directory ({@code name}) and its own ports, the ones the build
     * reserves as {@code realnode.neighbours.http.port} and {@code realnode.neighbours.transport.port},
     * so it can run beside {@link #shared()}; two such nodes must not run at once.
     */
    public static RealNode withPluginsBefore(String name, List<Path> pluginsBefore, String heap)
            throws IOException, InterruptedException {
        return withPluginsBefore(name, pluginsBefore, heap, List.of());
    }

    /**
     * {@link #withPluginsBefore(String, List, String)} with {@code settings} (lines of {@code
     * opensearch.yml}, such as {@code path.repo: DIR}) added to the node's configuration.
     */
    public static RealNode withPluginsBefore(String name, List<Path> pluginsBefore, String heap, List<String> settings)
            throws IOException, InterruptedException {
        Path workdir = Path.of(required("realnode.workdir"));
        Path home = workdir.resolve(name);
        RealNode node = new RealNode(
                home,
                Integer.parseInt(required("realnode.neighbours.http.port")),
                Integer.parseInt(required("realnode.neighbours.transport.port")),
                heap,
                SINGLE_NODE_CLUSTER);
        node.install(
                Path.of(required("realnode.distribution")),
                pluginsBefore,
                Path.of(required("realnode.plugin.zip")),
                null,
                "realnode-0",
                Stream.concat(Stream.of("discovery.type: single-node"), settings.stream())
                        .toList());
        return node;
    }

    /**
     * The path of a plugin zip the build copied for the tests, from the system property that names it
     * (such as {@code realnode.knn.zip}); fails with the build command to use when the property is unset
     * or the file is missing.
     */
    public static Path pluginZip(String property) {
        String value = System.getProperty(property);
        if (value == null || value.isBlank() || Files.isRegularFile(Path.of(value)) == false) {
            throw new IllegalStateException("plugin zip [" + property + "] not found (" + value
                    + "): run the real-node tests through 'mvn verify'"
                    + " (the *NeighboursIT tests through 'mvn verify -Pneighbours')");
        }
        return Path.of(value);
    }

    /**
     * A fresh node in {@code home} (deleted first), for programs that run outside failsafe such as the
     * main job. {@code djlCache} may lie outside {@code home} so that libtorch is extracted only once;
     * null leaves libtorch in the node's own data path.
     */
    public static RealNode install(
            Path distribution, Path pluginZip, Path home, int httpPort, int transportPort, String heap, Path djlCache)
            throws IOException, InterruptedException {
        RealNode node = new RealNode(home, httpPort, transportPort, heap, SINGLE_NODE_CLUSTER);
        node.install(
                distribution, List.of(), pluginZip, djlCache, "realnode-0", List.of("discovery.type: single-node"));
        return node;
    }

    /**
     * A fresh node (not started) of a cluster of real nodes on 127.0.0.1, named {@code name}, that
     * finds the others on {@code seedTransportPorts}. The cluster forms around {@code bootstrapNode},
     * which must be started first; the others join it, each being cluster-manager eligible.
     */
    public static RealNode clusterMember(
            Path distribution,
            Path pluginZip,
            Path home,
            String name,
            int httpPort,
            int transportPort,
            List<Integer> seedTransportPorts,
            String bootstrapNode,
            String heap,
            Path djlCache)
            throws IOException, InterruptedException {
        RealNode node = new RealNode(home, httpPort, transportPort, heap, MULTI_NODE_CLUSTER);
        String seeds = String.join(
                ", ", seedTransportPorts.stream().map(p -> "127.0.0.1:" + p).toList());
        node.install(
                distribution,
                List.of(),
                pluginZip,
                djlCache,
                name,
                List.of(
                        "discovery.seed_hosts: [" + seeds + "]",
                        "cluster.initial_cluster_manager_nodes: [" + bootstrapNode + "]"));
        return node;
    }

    private static String required(String property) {
        String value = System.getProperty(property);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException(
                    "system property [" + property + "] is not set: run the real-node tests through 'mvn verify'");
        }
        return value;
    }

    private void install(
            Path distribution,
            List<Path> pluginsBefore,
            Path pluginZip,
            Path djlCache,
            String nodeName,
            List<String> discovery)
            throws IOException, InterruptedException {
        if (Files.isDirectory(distribution) == false) {
            throw new IllegalStateException("OpenSearch distribution not unpacked at " + distribution);
        }
        deleteRecursively(home);
        copyRecursively(distribution, home);
        Files.createDirectories(tmpDir());
        for (Path other : pluginsBefore) {
            installPlugin(other);
        }
        installPlugin(pluginZip);
        List<String> config = new ArrayList<>(List.of(
                "cluster.name: " + clusterName,
                "node.name: " + nodeName,
                "network.host: 127.0.0.1",
                "http.port: " + httpPort,
                "transport.port: " + transportPort));
        config.addAll(discovery);
        config.addAll(List.of(
                "path.data: " + home.resolve("data"),
                "path.logs: " + home.resolve("logs"),
                "compress.djl.num_threads: 2",
                ""));
        Files.writeString(home.resolve("config/opensearch.yml"), String.join("\n", config));
        if (djlCache != null) {
            // the plugin may write only under the node's data paths and temporary directory, where DJL's
            // cache lives by default (<data>/compress-djl): a cache shared across installs is linked there
            Files.createDirectories(djlCache);
            Path data = Files.createDirectories(home.resolve("data"));
            Files.createSymbolicLink(data.resolve("compress-djl"), djlCache.toAbsolutePath());
        }
        if (asRoot) {
            ensureNodeUser();
            List<String> chown = new ArrayList<>(List.of("chown", "-R", NODE_USER + ":" + NODE_USER, home.toString()));
            if (djlCache != null) {
                chown.add(djlCache.toString());
            }
            run(chown, Map.of());
        }
    }

    /**
     * Creates {@code dir} if needed and gives it to the user the node runs as, for a directory the
     * node must write outside its home (a snapshot repository named in {@code path.repo}).
     */
    public void shareDirectory(Path dir) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        if (asRoot) {
            ensureNodeUser();
            run(List.of("chown", "-R", NODE_USER + ":" + NODE_USER, dir.toString()), Map.of());
        }
    }

    private void installPlugin(Path zip) throws IOException, InterruptedException {
        run(
                List.of(
                        home.resolve("bin/opensearch-plugin").toString(),
                        "install",
                        "--batch",
                        zip.toUri().toString()),
                Map.of());
    }

    private static void ensureNodeUser() throws IOException, InterruptedException {
        Process id = new ProcessBuilder("id", "-u", NODE_USER)
                .redirectErrorStream(true)
                .start();
        if (id.waitFor() != 0) {
            run(
                    List.of("useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", NODE_USER),
                    Map.of());
        }
    }

    /** Starts the node as a daemon and waits until it answers on HTTP. */
    public void start() throws IOException, InterruptedException {
        if (pid > 0) {
            throw new IllegalStateException("node already running with pid " + pid);
        }
        Path pidFile = home.resolve("opensearch.pid");
        Files.deleteIfExists(pidFile);
        List<String> command = new ArrayList<>();
        if (asRoot) {
            command.addAll(List.of("runuser", "-u", NODE_USER, "--"));
        }
        command.addAll(List.of(home.resolve("bin/opensearch").toString(), "-d", "-p", pidFile.toString()));
        // The daemon keeps the launcher's stdout open, so its output goes to a file, never a pipe.
        ProcessBuilder launcher = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(
                        home.resolve("launcher.out").toFile()));
        launcher.environment()
                .putAll(Map.of(
                        "OPENSEARCH_JAVA_HOME",
                        System.getProperty("java.home"),
                        "OPENSEARCH_JAVA_OPTS",
                        "-Xms" + heap + " -Xmx" + heap,
                        "OPENSEARCH_TMPDIR",
                        tmpDir().toString(),
                        "OMP_WAIT_POLICY",
                        "PASSIVE"));
        Process process = launcher.start();
        if (process.waitFor() != 0) {
            throw new IllegalStateException("bin/opensearch exited with " + process.exitValue() + ": "
                    + Files.readString(home.resolve("launcher.out")));
        }
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        // the daemon creates the file before it writes the pid into it
        while (Files.exists(pidFile) == false || Files.readString(pidFile).isBlank()) {
            checkDeadline(deadline, "no pid file");
            Thread.sleep(200);
        }
        pid = Long.parseLong(Files.readString(pidFile).trim());
        client = RestClient.builder(new HttpHost("http", "127.0.0.1", httpPort)).build();
        while (true) {
            checkDeadline(deadline, "no green/yellow health");
            if (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false) == false) {
                throw new IllegalStateException("node process " + pid + " died during start; log:\n" + logTail());
            }
            try {
                Response r =
                        client.performRequest(new Request("GET", "/_cluster/health?wait_for_status=yellow&timeout=1s"));
                if (r.getStatusLine().getStatusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                Thread.sleep(500);
            }
        }
    }

    private void checkDeadline(long deadline, String what) {
        if (System.nanoTime() > deadline) {
            throw new IllegalStateException(
                    "node did not start within " + START_TIMEOUT + " (" + what + "); log:\n" + logTail());
        }
    }

    /** Stops the node by its PID (SIGTERM, a clean shutdown) and waits for the process to end. */
    public void stop() throws IOException, InterruptedException {
        if (client != null) {
            client.close();
            client = null;
        }
        if (pid <= 0) {
            return;
        }
        ProcessHandle handle = ProcessHandle.of(pid).orElse(null);
        pid = -1;
        if (handle == null) {
            return;
        }
        handle.destroy();
        try {
            handle.onExit().get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            handle.destroyForcibly();
        }
    }

    public void restart() throws IOException, InterruptedException {
        stop();
        start();
    }

    public RestClient client() {
        if (client == null) {
            throw new IllegalStateException("node is not running");
        }
        return client;
    }

    /** Sends one request and parses its JSON answer; non-2xx answers throw the client's ResponseException. */
    public Map<String, Object> call(String method, String path, String body) throws IOException {
        Request request = new Request(method, path);
        if (body != null) {
            request.setJsonEntity(body);
        }
        Response response = client().performRequest(request);
        try (InputStream in = response.getEntity().getContent();
                XContentParser parser = JsonXContent.jsonXContent.createParser(
                        NamedXContentRegistry.EMPTY, DeprecationHandler.IGNORE_DEPRECATIONS, in)) {
            return parser.map();
        }
    }

    public Path home() {
        return home;
    }

    /** The node's temporary directory, in its home rather than a fresh one under /tmp, so tests can look into it. */
    public Path tmpDir() {
        return home.resolve("tmp");
    }

    /** The node's main log file. */
    public Path logFile() {
        return home.resolve("logs/" + clusterName + ".log");
    }

    public int httpPort() {
        return httpPort;
    }

    /** The running node's process id (for a benchmark that puts the node in a memory cgroup); -1 when stopped. */
    public long pid() {
        return pid;
    }

    /** Lucene index directories of every shard copy on this node. */
    public List<Path> shardIndexDirectories(String indexUuid) throws IOException {
        Path indexDir = home.resolve("data/nodes/0/indices").resolve(indexUuid);
        try (Stream<Path> shards = Files.list(indexDir)) {
            return shards.filter(p -> p.getFileName().toString().matches("\\d+"))
                    .map(p -> p.resolve("index"))
                    .sorted()
                    .toList();
        }
    }

    /** The last lines of the node's main log, for failure messages. */
    public String logTail() {
        Path log = logFile();
        try {
            if (Files.exists(log) == false) {
                return "(no log at " + log + ")";
            }
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
        } catch (IOException e) {
            return "(log unreadable: " + e + ")";
        }
    }

    /** The whole main log. */
    public String log() throws IOException {
        return Files.readString(logFile(), StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws IOException, InterruptedException {
        stop();
    }

    private static void run(List<String> command, Map<String, String> env) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        pb.environment().putAll(env);
        Process p = pb.start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new IllegalStateException(
                    String.join(" ", command) + " failed with exit code " + p.exitValue() + ":\n" + output);
        }
    }

    private static void copyRecursively(Path from, Path to) throws IOException {
        try (Stream<Path> paths = Files.walk(from)) {
            for (Path source : (Iterable<Path>) paths::iterator) {
                Path target = to.resolve(from.relativize(source).toString());
                if (Files.isDirectory(source)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(source, target, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (Files.exists(dir) == false) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted((a, b) -> b.getNameCount() - a.getNameCount()).forEach(p -> {
                try {
                    Files.delete(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }
}
