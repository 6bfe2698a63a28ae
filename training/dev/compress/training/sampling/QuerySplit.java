package dev.compress.training.sampling;

import dev.compress.training.data.Qrels;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * Which queries train, which select the epoch (validation) and which are reported (test). Splits are
 * by query id, so no query contributes to two of them. The validation queries are a seeded fraction
 * carved out of the training split (sorted ids, then shuffled, so the draw does not depend on file order).
 */
public record QuerySplit(List<String> train, List<String> validation, List<String> test) {

    public QuerySplit {
        train = List.copyOf(train);
        validation = List.copyOf(validation);
        test = List.copyOf(test);
        Set<String> seen = new HashSet<>(train);
        for (String q : validation) {
            if (!seen.add(q)) {
                throw new IllegalArgumentException("query '" + q + "' is in two splits");
            }
        }
        for (String q : test) {
            if (!seen.add(q)) {
                throw new IllegalArgumentException("query '" + q + "' is in two splits");
            }
        }
    }

    /** Uses a data set's own train and test qrels; validation = {@code validationFraction} of train. */
    public static QuerySplit ofDatasetSplits(Qrels train, Qrels test, double validationFraction, long seed) {
        List<String>[] trainVal = carve(judged(train), validationFraction, seed);
        return new QuerySplit(trainVal[0], trainVal[1], judged(test));
    }

    /** For judgments without their own splits: test and validation fractions carved from one set of queries. */
    public static QuerySplit ofFractions(Qrels all, double validationFraction, double testFraction, long seed) {
        List<String>[] rest = carve(judged(all), testFraction, seed);
        List<String>[] trainVal = carve(rest[0], validationFraction / Math.max(1e-9, 1 - testFraction), seed + 1);
        return new QuerySplit(trainVal[0], trainVal[1], rest[1]);
    }

    /** The queries with at least one relevant document, in the judgments' order. */
    public static List<String> judged(Qrels qrels) {
        return qrels.queryIds().stream()
                .filter(q -> !qrels.relevant(q).isEmpty())
                .toList();
    }

    @SuppressWarnings("unchecked")
    private static List<String>[] carve(List<String> ids, double fraction, long seed) {
        if (fraction < 0 || fraction >= 1) {
            throw new IllegalArgumentException("fraction must be in [0, 1), got " + fraction);
        }
        List<String> shuffled = new ArrayList<>(ids);
        Collections.sort(shuffled);
        Collections.shuffle(shuffled, new Random(seed));
        int carved = (int) Math.round(fraction * shuffled.size());
        return new List[] {shuffled.subList(carved, shuffled.size()), shuffled.subList(0, carved)};
    }
}
