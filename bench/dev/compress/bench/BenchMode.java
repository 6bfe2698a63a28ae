package dev.compress.bench;

/**
 * How much to run: {@code quick} (minutes: small synthetic sets, short JMH runs, the cheap trainers)
 * or {@code full} (the complete grid of docs/benchmarks.md; hours on a 2-core machine).
 *
 * @param threads concurrent searching threads for the throughput columns
 */
record BenchMode(String name, boolean full, int threads) {

    static BenchMode of(String name) {
        int threads = Integer.getInteger(
                "bench.threads", Math.max(2, Runtime.getRuntime().availableProcessors()));
        return switch (name) {
            case "quick" -> new BenchMode(name, false, threads);
            case "full" -> new BenchMode(name, true, threads);
            default -> throw new IllegalArgumentException("mode must be quick or full, not [" + name + "]");
        };
    }
}
