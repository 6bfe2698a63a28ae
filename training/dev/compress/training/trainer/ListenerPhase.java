package dev.compress.training.trainer;

import dev.compress.training.data.Progress;
import java.util.concurrent.CancellationException;

/**
 * Work before a trainer's epochs (the corpus PCA, hard-negative mining) told to a {@link
 * TrainingListener} as a phase, each time another twentieth is done (a pass over a corpus tells its
 * rows a block at a time, so a small corpus reports fewer times); a stop the listener asks for
 * ends the work with a {@link CancellationException} there, since there is no model yet to keep.
 */
public final class ListenerPhase implements Progress {
    private static final int REPORTS = 20;

    private final String name;
    private final TrainingListener listener;
    private long reported = -1;

    public ListenerPhase(String name, TrainingListener listener) {
        this.name = name;
        this.listener = listener;
    }

    @Override
    public void done(int done, int total) {
        long share = total == 0 ? REPORTS : (long) done * REPORTS / total;
        if (share == reported) {
            return;
        }
        reported = share;
        if (listener.stopRequested()) {
            throw new CancellationException("stopped during " + name);
        }
        listener.onPhase(name, done, total);
    }
}
