package dev.compress.plugin.mapper;

import java.util.Arrays;
import java.util.Locale;
import org.apache.lucene.index.VectorSimilarityFunction;

/**
 * The similarity a {@code compressed_vector} field ranks by, with Lucene's mapping of it to a
 * non-negative score that grows with similarity (the k-NN plugin's Lucene engine scores the same
 * way, so {@code min_score} thresholds carry over).
 */
public enum VectorSimilarity {
    /** Dot product of unit vectors; the mapper rejects vectors that are not unit length. Score {@code (1 + dot) / 2}. */
    DOT_PRODUCT(VectorSimilarityFunction.DOT_PRODUCT, "dot product", "(1 + dot_product) / 2"),
    /** Cosine; any vector of squared length at least {@link #MIN_COSINE_SQUARED_LENGTH}. Score {@code (1 + cos) / 2}. */
    COSINE(VectorSimilarityFunction.COSINE, "cosine", "(1 + cosine) / 2"),
    /** Euclidean distance, any vectors. Score {@code 1 / (1 + d^2)}. */
    L2(VectorSimilarityFunction.EUCLIDEAN, "l2 distance", "1 / (1 + l2_distance^2)"),
    /** Unnormalised inner product, any vectors; Lucene's maximum-inner-product score. */
    INNER_PRODUCT(
            VectorSimilarityFunction.MAXIMUM_INNER_PRODUCT,
            "inner product",
            "1 / (1 - inner_product) below 0, else inner_product + 1");

    /**
     * The largest squared length a vector may have, for every similarity: Lucene scores in float, and by
     * Cauchy-Schwarz the squared length of two such vectors, their dot product and their squared distance stay
     * within four times this, float's largest value. Finite components alone do not keep scores finite.
     */
    public static final double MAX_SQUARED_LENGTH = Float.MAX_VALUE / 4.0;

    /** The squared L2 length of {@code vector}, summed in double so that it can exceed float's range. */
    public static double squaredLength(float[] vector) {
        double squares = 0;
        for (float v : vector) {
            squares += (double) v * v;
        }
        return squares;
    }

    /** The position of the first value of {@code vector} that is not finite, or -1: a model's output that overflowed, say. */
    public static int firstNonFinite(float[] vector) {
        for (int i = 0; i < vector.length; i++) {
            if (Float.isFinite(vector[i]) == false) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Refuses a vector whose squared length is above {@link #MAX_SQUARED_LENGTH}, with an error that {@code subject}
     * (naming the field or parameter) begins.
     */
    public static void checkLength(String subject, double squaredLength) {
        if (squaredLength > MAX_SQUARED_LENGTH) {
            throw new IllegalArgumentException(subject + " has length " + (float) Math.sqrt(squaredLength) + ", above "
                    + (float) Math.sqrt(MAX_SQUARED_LENGTH)
                    + ": similarity scores of a vector that long overflow float arithmetic");
        }
    }

    /** How far from 1 the squared length of a {@code dot_product} vector may be: float rounding of a normalised vector. */
    public static final double UNIT_SQUARED_LENGTH_TOLERANCE = 1e-3;

    /**
     * Refuses, under dot_product, a vector that is not unit length: Lucene's score {@code (1 + dot) / 2} is clamped
     * at 0 and ranks correctly only on unit vectors. {@code subject} (naming the field or parameter) begins the error.
     */
    public static void checkUnitLength(String subject, double squaredLength) {
        if (Math.abs(squaredLength - 1.0) > UNIT_SQUARED_LENGTH_TOLERANCE) {
            throw new IllegalArgumentException(subject + ", which needs unit-length vectors; this one has length "
                    + (float) Math.sqrt(squaredLength));
        }
    }

    /**
     * The smallest squared length a vector may have under cosine: Lucene sums a vector's squares in float, and
     * below float's smallest normal value that sum underflows to zero or keeps too few bits, so that cosines come
     * out infinite or NaN. The zero vector, where cosine is undefined, is the extreme case.
     */
    public static final double MIN_COSINE_SQUARED_LENGTH = Float.MIN_NORMAL;

    /**
     * Refuses, under cosine, a vector whose squared length is below {@link #MIN_COSINE_SQUARED_LENGTH}, with an
     * error that {@code subject} (naming the field or parameter) begins.
     */
    public static void checkCosineLength(String subject, double squaredLength) {
        if (squaredLength == 0) {
            throw new IllegalArgumentException(subject + " is the zero vector, for which cosine is undefined");
        }
        if (squaredLength < MIN_COSINE_SQUARED_LENGTH) {
            throw new IllegalArgumentException(subject + " has length " + Math.sqrt(squaredLength) + ", below "
                    + (float) Math.sqrt(MIN_COSINE_SQUARED_LENGTH)
                    + ": cosine similarity of a vector that short underflows float arithmetic");
        }
    }

    private final VectorSimilarityFunction lucene;
    private final String measure;
    private final String scoreFormula;

    VectorSimilarity(VectorSimilarityFunction lucene, String measure, String scoreFormula) {
        this.lucene = lucene;
        this.measure = measure;
        this.scoreFormula = scoreFormula;
    }

    public VectorSimilarityFunction lucene() {
        return lucene;
    }

    public String jsonName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** What the score measures, for explanations: {@code "l2 distance"}, {@code "cosine"}... */
    public String measure() {
        return measure;
    }

    /** How the score follows from {@link #measure()}, for explanations. */
    public String scoreFormula() {
        return scoreFormula;
    }

    /**
     * The similarity (or, for {@link #L2}, the distance) a score stands for: the inverse of Lucene's
     * mapping, so an explanation can show the measure the user reasons in. Cosine and dot-product
     * scores are clamped at 0 by Lucene, so a score of 0 reads as -1 or below.
     */
    public double measureOfScore(float score) {
        return switch (this) {
            case DOT_PRODUCT, COSINE -> 2.0 * score - 1;
            case L2 -> Math.sqrt(Math.max(0, 1.0 / score - 1));
            case INNER_PRODUCT -> score < 1 ? 1 - 1.0 / score : score - 1.0;
        };
    }

    /** Whether vectors' lengths, not only their directions, decide the ranking. */
    public boolean needsMagnitudes() {
        return this == L2 || this == INNER_PRODUCT;
    }

    /** The score of an l2 distance: Lucene's {@code 1 / (1 + d^2)}. */
    public static float scoreOfDistance(float distance) {
        return 1f / (1f + distance * distance);
    }

    public static VectorSimilarity fromJson(String field, String value) {
        for (VectorSimilarity s : values()) {
            if (s.jsonName().equals(value)) {
                return s;
            }
        }
        throw new IllegalArgumentException("[" + field + "] must be one of "
                + Arrays.stream(values()).map(VectorSimilarity::jsonName).toList() + ", got [" + value + "]");
    }
}
