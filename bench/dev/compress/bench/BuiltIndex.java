package dev.compress.bench;

import dev.compress.harness.BenchData;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.apache.lucene.util.IOUtils;

/**
 * Where a benchmark index lives: a temporary directory removed after use, or, with {@code
 * -Dbench.index.dir=DIR}, {@code DIR/<data set>/<index>} kept for later runs. A million-vector
 * index is slow to build, while a change to the search side only needs new searches.
 * A kept index counts as built once its marker file (build and merge seconds) is written beside
 * it; a run interrupted during the build starts that index again. Delete the directory after
 * changing an index format or the data generator: the marker cannot tell.
 */
final class BuiltIndex implements Closeable {

    private static final String KEEP_DIR = System.getProperty("bench.index.dir");

    private final Path path;
    private final Path marker;

    private BuiltIndex(Path path, Path marker) {
        this.path = path;
        this.marker = marker;
    }

    static BuiltIndex of(BenchData set, String index) throws IOException {
        if (KEEP_DIR == null) {
            return new BuiltIndex(Files.createTempDirectory("bench-"), null);
        }
        Path parent = Path.of(KEEP_DIR, slug(set.name()));
        Path marker = parent.resolve(slug(index) + ".built");
        Path path = parent.resolve(slug(index));
        if (Files.exists(marker) == false) {
            IOUtils.rm(path);
            Files.createDirectories(path);
        }
        return new BuiltIndex(path, marker);
    }

    Path path() {
        return path;
    }

    /** Build and merge seconds of a kept index built earlier, or null when it must be built. */
    double[] seconds() throws IOException {
        return marker == null ? null : BuildMarker.read(marker);
    }

    void markBuilt(double[] seconds) throws IOException {
        if (marker != null) {
            BuildMarker.write(marker, seconds, "FormatComparison");
        }
    }

    /** Removes a temporary index; a kept one stays. */
    @Override
    public void close() throws IOException {
        if (marker == null) {
            IOUtils.rm(path);
        }
    }

    private static String slug(String name) {
        return name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-|-$", "");
    }
}
