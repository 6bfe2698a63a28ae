package dev.compress.bench;

import dev.compress.harness.RealNode;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Real nodes on 127.0.0.1 forming one cluster, for the {@code load} section: the distribution and
 * plugin zip the build prepared ({@code realnode.distribution}, {@code realnode.plugin.zip}), each
 * node in its own directory under the benchmark's output, on free ports.
 */
final class LoadCluster implements AutoCloseable {

    private final List<RealNode> nodes;

    private LoadCluster(List<RealNode> nodes) {
        this.nodes = nodes;
    }

    /** Installs and starts {@code count} nodes, the first bootstrapping the cluster, and waits for all to join. */
    static LoadCluster start(int count, String heap) throws IOException, InterruptedException {
        Path distribution = Path.of(required("realnode.distribution"));
        Path pluginZip = Path.of(required("realnode.plugin.zip"));
        Path workdir = BenchPaths.output().resolve("load-cluster").toAbsolutePath();
        List<Integer> httpPorts = new ArrayList<>();
        List<Integer> transportPorts = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            httpPorts.add(freePort());
            transportPorts.add(freePort());
        }
        List<RealNode> nodes = new ArrayList<>();
        LoadCluster cluster = new LoadCluster(nodes);
        try {
            for (int i = 0; i < count; i++) {
                RealNode node = RealNode.clusterMember(
                        distribution,
                        pluginZip,
                        workdir.resolve("node-" + i),
                        "load-" + i,
                        httpPorts.get(i),
                        transportPorts.get(i),
                        transportPorts,
                        "load-0",
                        heap,
                        workdir.resolve("djl-cache"));
                nodes.add(node);
                node.start();
            }
            nodes.get(0).call("GET", "/_cluster/health?wait_for_nodes=" + count + "&timeout=120s", null);
        } catch (IOException | InterruptedException | RuntimeException e) {
            cluster.close();
            throw e;
        }
        return cluster;
    }

    List<NodeHttp> clients() {
        return nodes.stream().map(node -> new NodeHttp(node.httpPort())).toList();
    }

    @Override
    public void close() throws IOException, InterruptedException {
        for (RealNode node : nodes) {
            node.close();
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static String required(String property) {
        String value = System.getProperty(property);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException(
                    "system property [" + property + "] is not set: run this through bench/run");
        }
        return value;
    }
}
