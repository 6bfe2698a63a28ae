package dev.compress.bwc;

import dev.compress.bwc.BackwardCompatibilityIndex.ScoredId;
import java.util.List;
import java.util.Map;

/**
 * What the reader of the version that wrote an index resource returned from it, kept beside the
 * index as {@code expected.json}: later readers must return the same.
 *
 * @param luceneVersion the Lucene version that wrote the index
 * @param binaryFlatFormat the version of our binary format's files ({@code .vbm}, {@code .vbc})
 * @param vectors every live document's vector as written, by id: fields with floats read it back as is
 * @param decodedCodes every live document's vector of the codes-only field, as decoded codes, by id
 * @param queries the query vectors
 * @param nearest for each field with floats, each query's rescored top ten
 */
record IndexExpectations(
        String luceneVersion,
        int binaryFlatFormat,
        Map<String, float[]> vectors,
        Map<String, float[]> decodedCodes,
        List<float[]> queries,
        Map<String, List<List<ScoredId>>> nearest) {}
