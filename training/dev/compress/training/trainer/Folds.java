package dev.compress.training.trainer;

import dev.compress.training.sampling.Shuffle;
import java.util.Random;
import java.util.stream.IntStream;

/**
 * A seeded split of {@code n} items into {@code k} folds of sizes differing by at most one: item i is in fold
 * {@code foldOf[i]}. The same (n, k, seed) always gives the same folds, so a cross-validated choice is
 * reproducible from the training seed.
 */
public record Folds(int k, int[] foldOf) {

    public Folds {
        if (k < 2 || foldOf.length < k) {
            throw new IllegalArgumentException("need k >= 2 and at least k items, got k=" + k + ", n=" + foldOf.length);
        }
    }

    /** Items in a seeded random order, dealt round-robin into {@code k} folds. */
    public static Folds of(int n, int k, long seed) {
        int[] order = Shuffle.permutation(n, new Random(seed));
        int[] foldOf = new int[n];
        for (int i = 0; i < n; i++) {
            foldOf[order[i]] = i % k;
        }
        return new Folds(k, foldOf);
    }

    /** The items of fold {@code f}, ascending. */
    public int[] heldOut(int f) {
        return IntStream.range(0, foldOf.length).filter(i -> foldOf[i] == f).toArray();
    }

    /** The items of every other fold, ascending. */
    public int[] training(int f) {
        return IntStream.range(0, foldOf.length).filter(i -> foldOf[i] != f).toArray();
    }
}
