package dev.compress.plugin.warmup;

import dev.compress.codec.search.RescoringKnnQuery;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.IndexSearcher;

/**
 * Runs searches on a shard's own vectors so that the JVM compiles the search code before users'
 * searches need it: a node that has just started runs a {@code compressed_vector} search's graph walk
 * and rescoring kernels (Vector API code) interpreted until the JIT has seen them a few thousand
 * times, and its first few hundred searches take several times longer than later ones. Each search takes one stored vector of the
 * field as its query, k = {@value #K} with {@value #OVERSAMPLE}x candidates, rescored: the walk, the
 * two-pass rescoring and, for a codes-only field, the codes' estimate. The vectors are spread over
 * the field's segments so that every segment's files are read the way a search reads them.
 */
final class SearchWarmer {

    static final int K = 10;
    static final float OVERSAMPLE = 3f;

    private SearchWarmer() {}

    /**
     * Searches each of {@code fields} (float vector fields of the searcher's reader) that holds vectors, in
     * turn, while {@code budget} lasts: each field an equal share of what is left, one taken from
     * {@code budget} per search. Returns the searches run.
     */
    static int warm(IndexSearcher searcher, List<String> fields, AtomicInteger budget) throws IOException {
        IndexReader reader = searcher.getIndexReader();
        Map<String, Integer> vectors = new LinkedHashMap<>();
        for (String field : fields) {
            int count = vectorCount(reader, field);
            if (count > 0) {
                vectors.put(field, count);
            }
        }
        int searches = 0;
        int fieldsLeft = vectors.size();
        for (Map.Entry<String, Integer> field : vectors.entrySet()) {
            int share = (Math.max(0, budget.get()) + fieldsLeft - 1) / fieldsLeft--;
            for (int i = 0; i < share && budget.getAndDecrement() > 0; i++) {
                // a prime stride spreads the queries over the segments
                float[] query = vector(reader, field.getKey(), (int) ((long) i * 7919 % field.getValue()));
                searcher.search(new RescoringKnnQuery(field.getKey(), query, K, OVERSAMPLE, null, true), K);
                searches++;
            }
        }
        return searches;
    }

    private static int vectorCount(IndexReader reader, String field) throws IOException {
        int count = 0;
        for (LeafReaderContext leaf : reader.leaves()) {
            FloatVectorValues values = leaf.reader().getFloatVectorValues(field);
            count += values == null ? 0 : values.size();
        }
        return count;
    }

    /** The {@code n}-th vector of {@code field}, counting over the segments in order (a copy). */
    private static float[] vector(IndexReader reader, String field, int n) throws IOException {
        int left = n;
        for (LeafReaderContext leaf : reader.leaves()) {
            FloatVectorValues values = leaf.reader().getFloatVectorValues(field);
            if (values == null) {
                continue;
            }
            if (left < values.size()) {
                return values.vectorValue(left).clone();
            }
            left -= values.size();
        }
        throw new IllegalArgumentException("field [" + field + "] has no vector " + n);
    }
}
