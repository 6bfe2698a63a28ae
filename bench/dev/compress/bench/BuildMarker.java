package dev.compress.bench;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/**
 * The marker beside a kept benchmark index ({@link BuiltIndex}, {@link KeptRestIndexes}): its build
 * and merge seconds, written once the index is complete, so that a later run knows it may reuse
 * the index and what building it took.
 */
final class BuildMarker {

    private BuildMarker() {}

    /** The build and merge seconds in {@code marker}, or null when there is none. */
    static double[] read(Path marker) throws IOException {
        if (Files.exists(marker) == false) {
            return null;
        }
        Properties built = new Properties();
        try (Reader in = Files.newBufferedReader(marker)) {
            built.load(in);
        }
        return new double[] {
            Double.parseDouble(built.getProperty("index_s")), Double.parseDouble(built.getProperty("merge_s"))
        };
    }

    /** Writes {@code seconds} (build, merge) to {@code marker}, naming the {@code writer}. */
    static void write(Path marker, double[] seconds, String writer) throws IOException {
        Properties built = new Properties();
        built.setProperty("index_s", Double.toString(seconds[0]));
        built.setProperty("merge_s", Double.toString(seconds[1]));
        try (Writer out = Files.newBufferedWriter(marker)) {
            built.store(out, "built by " + writer);
        }
    }
}
