package dev.compress.bench;

import java.io.IOException;

/**
 * The order in which several indexes are timed together: the queries in blocks of {@value #BLOCK}, each block sent to every index in
 * turn (the order rotating from block to block), {@code rounds} times after one untimed round. A machine whose
 * speed drifts (other load, CPU steal) then slows every index alike, where timing one index after another lets
 * the drift decide their ratio; within a block an index runs warm, as it does when it serves its own traffic.
 */
final class InterleavedPass {

    /** Queries per block. */
    static final int BLOCK = 50;

    /** One search: index {@code index} answers query {@code query}; {@code round} is -1 in the untimed round. */
    @FunctionalInterface
    interface Search {
        void run(int index, int query, int round) throws IOException;
    }

    private InterleavedPass() {}

    static void run(int indexes, int queries, int rounds, Search search) throws IOException {
        int turn = 0;
        for (int round = -1; round < rounds; round++) {
            for (int from = 0; from < queries; from += BLOCK, turn++) {
                for (int j = 0; j < indexes; j++) {
                    int index = (turn + j) % indexes;
                    for (int q = from; q < Math.min(queries, from + BLOCK); q++) {
                        search.run(index, q, round);
                    }
                }
            }
        }
    }
}
