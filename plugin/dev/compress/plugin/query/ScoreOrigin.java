package dev.compress.plugin.query;

import dev.compress.plugin.mapper.VectorSimilarity;
import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;
import org.apache.lucene.search.Explanation;

/**
 * Where a {@code compressed_knn} hit's score comes from, as {@code explain} reports it: the field's
 * similarity and how the score maps to it, whether it is exact or a code estimate, whether it was
 * rescored, which query dimensions counted, and which search selected the hit.
 *
 * @param kept the dimensions the mask kept, ascending, or null when every dimension counts
 * @param search the search that selected the hit, e.g. {@code "top k=10 of the graph walk"}
 */
record ScoreOrigin(String field, VectorSimilarity similarity, Method method, int dimension, int[] kept, String search) {

    /** How a score was computed. */
    enum Method {
        EXACT_FLOAT(true, false, "exact float similarity of the query and the document's float vector"),
        RESCORED_FLOAT(
                true,
                true,
                "rescored with the stored float vector: exact float similarity (the candidate was found"
                        + " with the sign-code estimate)"),
        STORED_FLOAT(
                true,
                false,
                "exact float similarity of the query and the float vector stored beside the sign code"
                        + " (every document scored, no code estimate)"),
        CODE_ESTIMATE(
                false,
                false,
                "binary code estimate: the query quantised to 4 bits against the sign code, not rescored"),
        CODE_ESTIMATE_RESCORED(
                false,
                true,
                "binary code estimate: rescored with the float query against the sign code, as the field"
                        + " keeps no float vectors");

        private final boolean exact;
        private final boolean rescored;
        private final String text;

        Method(boolean exact, boolean rescored, String text) {
            this.exact = exact;
            this.rescored = rescored;
            this.text = text;
        }

        /** Whether the graph walk's candidates were scored again, as the query statistics count it. */
        boolean rescored() {
            return rescored;
        }
    }

    /** The explanation of a hit whose (boosted) score is {@code score}. */
    Explanation explain(float score, float boost) {
        float unboosted = boost == 0 ? score : score / boost;
        String measure = similarity.measure()
                + (method.exact ? "" : " (estimated)")
                + (kept == null ? "" : " with the masked query");
        return Explanation.match(
                score,
                String.format(
                        Locale.ROOT,
                        "compressed_knn on [%s], similarity [%s]: score = %s%s; %s",
                        field,
                        similarity.jsonName(),
                        boost == 1f ? "" : boost + " * ",
                        similarity.scoreFormula(),
                        method.text),
                Explanation.match((float) similarity.measureOfScore(unboosted), measure),
                dimensions(),
                Explanation.match(score, "selected by " + search));
    }

    /** Why a document is not a hit: {@code reason} and {@code detail} when known, else null. */
    Explanation explainNoMatch(String reason, Explanation detail) {
        String description =
                "compressed_knn on [" + field + "]: not selected by " + search + (reason == null ? "" : "; " + reason);
        return detail == null ? Explanation.noMatch(description) : Explanation.noMatch(description, detail);
    }

    private Explanation dimensions() {
        if (kept == null) {
            return Explanation.match(dimension, "no mask: all " + dimension + " dimensions count");
        }
        return Explanation.match(
                kept.length,
                "mask applied: " + kept.length + " of " + dimension + " dimensions count, " + listed(kept)
                        + "; the query is zero in the others");
    }

    /** Dimensions an explanation lists before it counts the rest: every hit repeats them. */
    static final int LISTED_DIMENSIONS = 32;

    /** The first {@link #LISTED_DIMENSIONS} of {@code kept}, and how many more there are. */
    static String listed(int[] kept) {
        if (kept.length <= LISTED_DIMENSIONS) {
            return Arrays.toString(kept);
        }
        String first = Arrays.toString(Arrays.copyOf(kept, LISTED_DIMENSIONS));
        return first.substring(0, first.length() - 1) + ", ... and " + (kept.length - LISTED_DIMENSIONS) + " more]";
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ScoreOrigin o
                && field.equals(o.field)
                && similarity == o.similarity
                && method == o.method
                && dimension == o.dimension
                && Arrays.equals(kept, o.kept)
                && search.equals(o.search);
    }

    @Override
    public int hashCode() {
        return Objects.hash(field, similarity, method, dimension, Arrays.hashCode(kept), search);
    }
}
