package dev.compress.bench;

import java.util.List;

/** One part of the benchmark harness: runs and returns its tables. */
interface BenchSection {

    /** The name the command line selects it by, and its output files' name. */
    String name();

    List<ResultTable> run(BenchMode mode) throws Exception;
}
