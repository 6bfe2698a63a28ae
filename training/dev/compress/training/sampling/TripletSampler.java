package dev.compress.training.sampling;

import java.util.Random;

/**
 * Draws one epoch of (query, positive, negative) triplets: every positive pair once per epoch in a
 * seeded random order (or the first {@code maxPerEpoch} of that order), each with a negative that is, with probability {@code hardFraction}, one of
 * the query's mined hard negatives (uniformly) and otherwise a uniformly random corpus document that
 * is not relevant to the query.
 */
public final class TripletSampler {

    /** Parallel arrays of one epoch's triplets. */
    public record Triplets(int[] query, int[] positive, int[] negative, float[] gain) {
        public int size() {
            return query.length;
        }
    }

    private final TrainingData data;
    private final double hardFraction;
    private final int maxPerEpoch;
    private final long seed;

    /** @param maxPerEpoch at most this many triplets per epoch (a fresh random subset each time); 0 = all pairs */
    public TripletSampler(TrainingData data, double hardFraction, int maxPerEpoch, long seed) {
        if (hardFraction < 0 || hardFraction > 1) {
            throw new IllegalArgumentException("hardFraction must be in [0, 1], got " + hardFraction);
        }
        if (maxPerEpoch < 0) {
            throw new IllegalArgumentException("maxPerEpoch must be >= 0, got " + maxPerEpoch);
        }
        this.data = data;
        this.hardFraction = hardFraction;
        this.maxPerEpoch = maxPerEpoch;
        this.seed = seed;
    }

    /** How many triplets each epoch holds. */
    public int perEpoch() {
        int n = data.positives().size();
        return maxPerEpoch > 0 ? Math.min(n, maxPerEpoch) : n;
    }

    public Triplets epoch(int epoch) {
        Random rnd = new Random(seed * 1_000_003L + epoch);
        int[] order = Shuffle.permutation(data.positives().size(), rnd);
        int size = perEpoch();
        int[] q = new int[size];
        int[] p = new int[size];
        int[] neg = new int[size];
        float[] gain = new float[size];
        for (int i = 0; i < size; i++) {
            PositivePair pair = data.positives().get(order[i]);
            q[i] = pair.query();
            p[i] = pair.doc();
            gain[i] = pair.gain();
            neg[i] = negative(pair.query(), rnd);
        }
        return new Triplets(q, p, neg, gain);
    }

    private int negative(int query, Random rnd) {
        int[] hard = data.hardNegatives()[query];
        if (hard.length > 0 && rnd.nextDouble() < hardFraction) {
            return hard[rnd.nextInt(hard.length)];
        }
        int corpusSize = data.corpus().size();
        var relevant = data.relevantDocs().get(query);
        if (relevant.size() >= corpusSize) {
            throw new IllegalStateException("every corpus document is relevant to training query " + query);
        }
        int doc;
        do {
            doc = rnd.nextInt(corpusSize);
        } while (relevant.contains(doc));
        return doc;
    }
}
