package dev.compress.training.sampling;

import java.util.Random;

/**
 * {@link Random}'s sequence for a seed, number for number, for one thread: the same 48-bit linear
 * congruential generator that {@code Random}'s documentation specifies, kept in a plain field
 * rather than the atomic that makes {@code Random} safe to share. A trainer that draws a dropout
 * decision for every input of every step spent much of its own time on that atomic's updates; its
 * draws, and so its models, are the same as with {@code Random}.
 */
public final class UnsharedRandom extends Random {

    private static final long MULTIPLIER = 0x5DEECE66DL;
    private static final long ADDEND = 0xBL;
    private static final long MASK = (1L << 48) - 1;

    private long seed;

    public UnsharedRandom(long seed) {
        super(seed);
    }

    @Override
    public synchronized void setSeed(long seed) {
        // Random's constructor calls this before this class's field initialisers run, so the field
        // must have none: one would overwrite the seed set here
        this.seed = (seed ^ MULTIPLIER) & MASK;
        super.setSeed(seed); // clears Random's stored second Gaussian
    }

    @Override
    protected int next(int bits) {
        seed = (seed * MULTIPLIER + ADDEND) & MASK;
        return (int) (seed >>> (48 - bits));
    }
}
