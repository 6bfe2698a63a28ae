package dev.compress.training.sampling;

import java.util.Random;

/** Seeded random orders, so that every epoch's order is reproducible from its seed. */
public final class Shuffle {

    private Shuffle() {}

    /** 0, 1, ..., n - 1 in a random order (Fisher-Yates from the last position). */
    public static int[] permutation(int n, Random rnd) {
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        for (int i = n - 1; i > 0; i--) {
            int j = rnd.nextInt(i + 1);
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        return order;
    }
}
