package dev.compress.plugin.warmup;

import dev.compress.codec.search.RescoringKnnQuery;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.IndexSearcher;

/**
 * Runs searches on a shard's own vectors so that the JVM compiles the search code before users'
 * searches need it: a node that has just started runs a {@code compressed_vector} search's graph
 * walk and rescoring kernels (Vector API code) interpreted until the JIT has seen them a few
 * thousand times, and its first few hundred searches take several times longer than later ones.
 * Each search takes one of the field's vectors as its query (a stored vector, or for a codes-only
 * field one decoded from its code), k = {@value #K} with {@value #OVERSAMPLE}x candidates, rescored:
 * the walk, the two-pass rescoring and, for a codes-only field, the codes' estimate. Nested and
 * filtered searches, masks and query adapters run code of their own that this does not reach.
 */
final class SearchWarmer {

    static final int K = 10;
    static final float OVERSAMPLE = 3f;

    private SearchWarmer() {}

    /**
     * Runs {@code searches} searches over {@code fields} (float vector fields of the searcher's reader),
     * an equal share for each field that holds vectors; returns how many ran.
     */
    static int warm(IndexSearcher searcher, List<String> fields, int searches) throws IOException {
        List<FieldVectors> withVectors = new ArrayList<>();
        for (String field : fields) {
            FieldVectors vectors = FieldVectors.of(searcher.getIndexReader(), field);
            if (vectors.size() > 0) {
                withVectors.add(vectors);
            }
        }
        int run = 0;
        for (int part = 0; part < withVectors.size(); part++) {
            FieldVectors field = withVectors.get(part);
            int share = share(searches, withVectors.size(), part);
            for (int i = 0; i < share; i++) {
                // a prime stride spreads the queries over the field's vectors
                float[] query = field.vector((int) ((long) i * 7919 % field.size()));
                searcher.search(new RescoringKnnQuery(field.name(), query, K, OVERSAMPLE, null, true), K);
                run++;
            }
        }
        return run;
    }

    /** Part {@code part} (from 0) of {@code total} split as evenly as whole numbers allow into {@code parts}. */
    static int share(int total, int parts, int part) {
        return total / parts + (part < total % parts ? 1 : 0);
    }

    /** A field's vectors over a reader's segments, in segment order, opened once for all its searches. */
    private record FieldVectors(String name, List<FloatVectorValues> segments, int size) {

        static FieldVectors of(IndexReader reader, String field) throws IOException {
            List<FloatVectorValues> segments = new ArrayList<>();
            int size = 0;
            for (LeafReaderContext leaf : reader.leaves()) {
                FloatVectorValues values = leaf.reader().getFloatVectorValues(field);
                if (values != null && values.size() > 0) {
                    segments.add(values);
                    size += values.size();
                }
            }
            return new FieldVectors(field, segments, size);
        }

        /** The {@code n}-th vector, counting over the segments in order (a copy). */
        float[] vector(int n) throws IOException {
            int left = n;
            for (FloatVectorValues values : segments) {
                if (left < values.size()) {
                    return values.vectorValue(left).clone();
                }
                left -= values.size();
            }
            throw new IllegalArgumentException("field [" + name + "] has " + size + " vectors, not " + (n + 1));
        }
    }
}
