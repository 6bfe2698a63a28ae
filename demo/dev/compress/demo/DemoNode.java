package dev.compress.demo;

import dev.compress.harness.RealNode;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The main job's node: the OpenSearch distribution and plugin zip the build left in {@code target/},
 * installed fresh under {@code target/demo/node} and started on free loopback ports. libtorch is
 * extracted to {@code target/demo/djl-cache} once and reused by later runs.
 */
final class DemoNode {

    private DemoNode() {}

    static RealNode start(Path build, String heap) throws IOException, InterruptedException {
        Path distribution =
                single(build.resolve("opensearch-dist"), "opensearch-*", "the unpacked OpenSearch distribution");
        Path pluginZip = single(build, "opensearch-embedding-compress-*.zip", "the plugin zip");
        RealNode node = RealNode.install(
                distribution,
                pluginZip,
                build.resolve("demo/node"),
                freePort(),
                freePort(),
                heap,
                build.resolve("demo/djl-cache"));
        node.start();
        return node;
    }

    private static Path single(Path dir, String glob, String what) throws IOException {
        if (Files.isDirectory(dir)) {
            try (DirectoryStream<Path> matches = Files.newDirectoryStream(dir, glob)) {
                for (Path match : matches) {
                    return match;
                }
            }
        }
        throw new IOException("no " + what + " (" + dir.resolve(glob) + "): run ./compress, which builds it");
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
