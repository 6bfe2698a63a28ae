package dev.compress.demo.embed;

import java.io.PrintStream;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * A one-line progress report on a stream (stderr): bar, count, rate and time left. On a terminal
 * the line is redrawn in place at most twice a second; in a log it is a new line every ten
 * seconds. The rate counts only the work of this run, not rows found already done.
 */
final class ProgressBar {

    private static final int WIDTH = 30;

    private final String label;
    private final int total;
    private final int startedAt;
    private final PrintStream out;
    private final LongSupplier nanoClock;
    private final boolean inPlace;
    private final long intervalNanos;
    private final long startNanos;
    private long lastDrawNanos;
    private int done;

    ProgressBar(String label, int total, int alreadyDone, PrintStream out, boolean inPlace, LongSupplier nanoClock) {
        this.label = label;
        this.total = total;
        this.startedAt = alreadyDone;
        this.done = alreadyDone;
        this.out = out;
        this.inPlace = inPlace;
        this.nanoClock = nanoClock;
        this.intervalNanos = inPlace ? 500_000_000L : 10_000_000_000L;
        this.startNanos = nanoClock.getAsLong();
        this.lastDrawNanos = startNanos;
    }

    /** On stderr, redrawn in place when a console is attached. */
    static ProgressBar onStderr(String label, int total, int alreadyDone) {
        return new ProgressBar(label, total, alreadyDone, System.err, System.console() != null, System::nanoTime);
    }

    void advance(int items) {
        done += items;
        long now = nanoClock.getAsLong();
        if (now - lastDrawNanos >= intervalNanos) {
            lastDrawNanos = now;
            draw(now);
        }
    }

    /** Draws the final state and ends the line. */
    void finish() {
        draw(nanoClock.getAsLong());
        if (inPlace) {
            out.println();
        }
    }

    /** Items per second over this run so far. */
    double rate() {
        double seconds = (nanoClock.getAsLong() - startNanos) / 1e9;
        return seconds > 0 ? (done - startedAt) / seconds : 0;
    }

    private void draw(long now) {
        double seconds = (now - startNanos) / 1e9;
        double rate = seconds > 0 ? (done - startedAt) / seconds : 0;
        String line = render(label, done, total, rate);
        if (inPlace) {
            out.print("\r" + line);
        } else {
            out.println(line);
        }
        out.flush();
    }

    /** E.g. {@code scifact corpus [#########.....] 1,024/5,183  34.1 docs/s  ETA 2m 02s}. */
    static String render(String label, int done, int total, double rate) {
        int filled = total == 0 ? WIDTH : (int) ((long) WIDTH * done / total);
        String bar = "#".repeat(filled) + ".".repeat(WIDTH - filled);
        String eta = done >= total ? "done" : rate > 0 ? "ETA " + duration((total - done) / rate) : "ETA ?";
        return String.format(Locale.ROOT, "%s [%s] %,d/%,d  %.1f docs/s  %s", label, bar, done, total, rate, eta);
    }

    static String duration(double seconds) {
        long s = Math.round(seconds);
        if (s >= 3600) {
            return String.format(Locale.ROOT, "%dh %02dm", s / 3600, s % 3600 / 60);
        }
        if (s >= 60) {
            return String.format(Locale.ROOT, "%dm %02ds", s / 60, s % 60);
        }
        return s + "s";
    }
}
