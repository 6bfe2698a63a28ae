package dev.compress.demo;

import java.io.PrintStream;

/**
 * The main job's console: one line per step, prefixed with the time since the start. On a terminal a
 * step's running status (training epochs) rewrites one line; elsewhere (a log, a pipe) a status is
 * printed at most every {@value #LOG_STATUS_SECONDS} seconds, so logs stay short.
 */
final class ProgressDisplay {

    static final int LOG_STATUS_SECONDS = 15;

    private final PrintStream out;
    private final boolean terminal;
    private final long startNanos = System.nanoTime();
    private boolean lineOpen;
    private double lastLoggedStatus = Double.NEGATIVE_INFINITY;

    ProgressDisplay(PrintStream out, boolean terminal) {
        this.out = out;
        this.terminal = terminal;
    }

    /** A finished step. */
    synchronized void step(String phase, String message) {
        closeLine();
        out.println(prefix(phase) + message);
        out.flush();
    }

    /** A running step's status; on a terminal it replaces the previous status line. */
    synchronized void status(String phase, String message) {
        if (terminal) {
            out.print("\r\033[K" + prefix(phase) + message);
            lineOpen = true;
        } else if (elapsedSeconds() - lastLoggedStatus >= LOG_STATUS_SECONDS) {
            out.println(prefix(phase) + message);
            lastLoggedStatus = elapsedSeconds();
        }
        out.flush();
    }

    /** Plain text (tables), after any open status line. */
    synchronized void print(String text) {
        closeLine();
        out.print(text);
        out.flush();
    }

    double elapsedSeconds() {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    private String prefix(String phase) {
        long s = Math.round(elapsedSeconds());
        return String.format("[%2d:%02d] %-8s ", s / 60, s % 60, phase);
    }

    private void closeLine() {
        if (lineOpen) {
            out.print("\r\033[K");
            lineOpen = false;
        }
    }
}
