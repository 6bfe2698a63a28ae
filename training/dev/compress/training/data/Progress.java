package dev.compress.training.data;

/**
 * Told how far a long computation over vectors is, {@code done} of {@code total} units of similar
 * cost (rows of a corpus, steps of a decomposition). It may throw to stop the computation, which then
 * leaves nothing behind.
 */
@FunctionalInterface
public interface Progress {

    Progress NONE = (done, total) -> {};

    void done(int done, int total);
}
