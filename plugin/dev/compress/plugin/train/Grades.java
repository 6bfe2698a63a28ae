package dev.compress.plugin.train;

/**
 * A judgment's rating as a whole grade. Ratings arrive as numbers or as strings (imports often send
 * {@code "3.000"}); they are rounded, since the gains of nDCG and of the trainers are defined on
 * graded relevance. Index rows and Workbench lists go through this one rule.
 */
final class Grades {

    /** The lowest rating that rounds to a relevant grade (1). */
    static final double LOWEST_RELEVANT = 0.5;

    /** The highest grade: gains of 2^grade - 1, and their sums over a query's documents, stay finite floats. */
    static final int HIGHEST = 31;

    private Grades() {}

    /**
     * The rounded grade, or null when {@code rating} is neither a number nor a numeric string;
     * a rating that rounds above {@link #HIGHEST} is refused.
     */
    static Integer wholeGrade(Object rating) {
        double value;
        if (rating instanceof Number n) {
            value = n.doubleValue();
        } else if (rating instanceof String s) {
            try {
                value = Double.parseDouble(s.trim());
            } catch (NumberFormatException notANumber) {
                return null;
            }
        } else {
            return null;
        }
        if (Double.isFinite(value) == false) {
            return null;
        }
        if (Math.round(value) > HIGHEST) {
            throw new IllegalArgumentException(
                    "a rating of [" + rating + "] is above the highest grade " + HIGHEST + " that training takes");
        }
        return (int) Math.round(value);
    }
}
