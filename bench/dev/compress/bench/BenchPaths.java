package dev.compress.bench;

import java.nio.file.Path;

/** Where the harness writes its results: {@code -Dbench.out}, else target/bench. */
final class BenchPaths {

    private BenchPaths() {}

    static Path output() {
        return Path.of(System.getProperty("bench.out", "target/bench"));
    }
}
