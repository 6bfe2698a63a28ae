package dev.compress.bench;

import dev.compress.harness.RealNode;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * The {@code knn} section's REST indexes kept between runs, with {@code -Dbench.index.dir=DIR}, as
 * snapshots in a repository at {@code DIR/knn-rest/repository} (the node's {@code path.repo}): an
 * index built and force-merged is snapshotted with a marker of its build and merge seconds beside
 * the repository, and a later run restores it instead of building it again. A million vectors are
 * slow to index through REST, and the searches are what a change to the search side needs
 * measured again. Without the property nothing is kept. As for {@link
 * BuiltIndex}, delete the directory after changing an index format or the data generator: the
 * marker cannot tell.
 */
final class KeptRestIndexes {

    private static final String REPOSITORY = "bench-kept";
    private static final Duration SNAPSHOT_TIMEOUT = Duration.ofHours(1);

    private final NodeHttp client;
    private final Path dir;

    private KeptRestIndexes(NodeHttp client, Path dir) {
        this.client = client;
        this.dir = dir;
    }

    /** Where kept indexes live, or null when {@code bench.index.dir} is unset. */
    static Path directory() {
        String keep = System.getProperty("bench.index.dir");
        return keep == null ? null : Path.of(keep, "knn-rest");
    }

    /** The snapshot repository's directory inside {@code dir}, absolute as the node needs it. */
    private static Path repository(Path dir) {
        return dir.resolve("repository").toAbsolutePath();
    }

    /** The node settings a kept repository needs: {@code path.repo}, or none. */
    static List<String> nodeSettings() {
        Path dir = directory();
        return dir == null ? List.of() : List.of("path.repo: " + repository(dir));
    }

    /**
     * Gives the repository directory to the user {@code node} will run as: a node checks that it can
     * write its {@code path.repo} when it starts.
     */
    static void shareWith(RealNode node) throws IOException, InterruptedException {
        Path dir = directory();
        if (dir != null) {
            node.shareDirectory(repository(dir));
        }
    }

    /**
     * The kept indexes of a node configured with {@link #nodeSettings()} and {@link #shareWith},
     * started: its repository registered, when indexes are kept at all.
     */
    static KeptRestIndexes on(NodeHttp client) throws IOException {
        Path dir = directory();
        if (dir != null) {
            client.call(
                    "PUT",
                    "/_snapshot/" + REPOSITORY,
                    "{\"type\":\"fs\",\"settings\":{\"location\":\"" + repository(dir) + "\"}}");
        }
        return new KeptRestIndexes(client, dir);
    }

    /**
     * Restores {@code index} of {@code docs} documents from its snapshot and returns the build and
     * merge seconds of the run that built it; null when it was not kept and must be built. A
     * snapshot without a marker (a run stopped while taking it) is deleted.
     */
    double[] restore(String index, int docs) throws IOException {
        if (dir == null) {
            return null;
        }
        String snapshot = snapshot(index, docs);
        double[] seconds = BuildMarker.read(marker(snapshot));
        if (seconds == null) {
            if (client.call("GET", "/_snapshot/" + REPOSITORY + "/_all", null).contains("\"" + snapshot + "\"")) {
                client.call("DELETE", "/_snapshot/" + REPOSITORY + "/" + snapshot, null, SNAPSHOT_TIMEOUT);
            }
            return null;
        }
        client.call(
                "POST",
                "/_snapshot/" + REPOSITORY + "/" + snapshot + "/_restore?wait_for_completion=true",
                "{\"indices\":\"" + index + "\",\"include_global_state\":false}",
                SNAPSHOT_TIMEOUT);
        client.call("GET", "/_cluster/health/" + index + "?wait_for_status=green&timeout=600s", null);
        System.out.println("restored " + index + " from snapshot " + snapshot);
        return seconds;
    }

    /** Snapshots {@code index}, just built in {@code seconds} (build, merge), for later runs. */
    void keep(String index, int docs, double[] seconds) throws IOException {
        if (dir == null) {
            return;
        }
        String snapshot = snapshot(index, docs);
        client.call(
                "PUT",
                "/_snapshot/" + REPOSITORY + "/" + snapshot + "?wait_for_completion=true",
                "{\"indices\":\"" + index + "\",\"include_global_state\":false}",
                SNAPSHOT_TIMEOUT);
        BuildMarker.write(marker(snapshot), seconds, "NodeKnnComparison");
    }

    private Path marker(String snapshot) {
        return dir.resolve(snapshot + ".built");
    }

    private static String snapshot(String index, int docs) {
        return (index + "-" + docs).toLowerCase(Locale.ROOT);
    }
}
