package dev.compress.codec;

import java.io.IOException;
import org.apache.lucene.search.DocAndFloatFeatureBuffer;

/**
 * Exact rescoring of a field's candidates that finds the best few without an exact score for every
 * candidate. A rescorer ({@code FloatVectorValues#rescorer}) that implements it is asked for the
 * {@code n} best rather than for every score, where that is all a search keeps.
 */
public interface TopCandidatesRescorer {

    /**
     * Puts into {@code out} a subset of the candidates, each with its exact score (the score the
     * rescorer's {@code VectorScorer} gives it), that holds every candidate among the {@code n} best
     * by that score, up to ties.
     *
     * @param docs segment doc ids, ascending, each with a vector in the field
     * @param count how many of {@code docs} are candidates
     * @param n how many best candidates the caller keeps
     * @throws IllegalStateException if a candidate has no vector in the field
     */
    void rescoreBest(int[] docs, int count, int n, DocAndFloatFeatureBuffer out) throws IOException;
}
