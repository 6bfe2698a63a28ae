package dev.compress.bwc;

import dev.compress.codec.HnswParameters;
import dev.compress.codec.binary.BinaryCodeOptions;
import dev.compress.codec.binary.BinaryHnswVectorsFormat;
import dev.compress.codec.floats.FloatHnswVectorsFormat;
import dev.compress.codec.search.RescoringKnnQuery;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.codecs.FilterCodec;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.perfield.PerFieldKnnVectorsFormat;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.KnnVectorValues;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.util.Bits;

/**
 * The index kept as a backward-compatibility resource: its fields, the codec that writes them as
 * the plugin does, and the reads whose answers the resource records.
 */
final class BackwardCompatibilityIndex {

    /** Float HNSW. */
    static final String FLOATS = "floats";
    /** 1-bit codes, centred, float vectors kept for rescoring: the default of {@code encoding: binary}. */
    static final String BITS = "bits";
    /** 1-bit codes around zero, float vectors kept. */
    static final String BITS_UNCENTRED = "bits_uncentred";
    /** 1-bit codes only ({@code rescore_vectors: false}): reads back as decoded codes. */
    static final String CODES = "codes";
    /** Fields whose vectors read back exactly as they were written, and whose rescored search is exact. */
    static final List<String> EXACT_FIELDS = List.of(FLOATS, BITS, BITS_UNCENTRED);

    static final String ID = "id";
    static final int K = 10;
    /** Candidates per segment of a search: a hundred times k covers every document of the resource's segments. */
    static final float OVERSAMPLE = 100f;

    private BackwardCompatibilityIndex() {}

    /**
     * The default Lucene codec, under its own name, with our formats for our fields: what the
     * plugin's codec wrapper writes, so a reader finds our formats by the SPI names in each segment.
     */
    static Codec codec() {
        Codec delegate = Codec.getDefault();
        HnswParameters hnsw = new HnswParameters(16, 100);
        KnnVectorsFormat floats = new FloatHnswVectorsFormat(hnsw);
        KnnVectorsFormat bits = new BinaryHnswVectorsFormat(hnsw, new BinaryCodeOptions(true, true));
        KnnVectorsFormat uncentred = new BinaryHnswVectorsFormat(hnsw, new BinaryCodeOptions(true, false));
        KnnVectorsFormat codes = new BinaryHnswVectorsFormat(hnsw, new BinaryCodeOptions(false, true));
        KnnVectorsFormat perField = new PerFieldKnnVectorsFormat() {
            @Override
            public KnnVectorsFormat getKnnVectorsFormatForField(String field) {
                return switch (field) {
                    case FLOATS -> floats;
                    case BITS -> bits;
                    case BITS_UNCENTRED -> uncentred;
                    case CODES -> codes;
                    default -> throw new IllegalArgumentException("no vector field [" + field + "]");
                };
            }
        };
        return new FilterCodec(delegate.getName(), delegate) {
            @Override
            public KnnVectorsFormat knnVectorsFormat() {
                return perField;
            }
        };
    }

    /** Every live document's vector of {@code field} as the reader returns it, by id. */
    static Map<String, float[]> vectors(DirectoryReader reader, String field) throws IOException {
        Map<String, float[]> vectors = new TreeMap<>();
        for (LeafReaderContext context : reader.leaves()) {
            LeafReader leaf = context.reader();
            FloatVectorValues values = leaf.getFloatVectorValues(field);
            if (values == null) {
                continue;
            }
            Bits live = leaf.getLiveDocs();
            StoredFields stored = leaf.storedFields();
            KnnVectorValues.DocIndexIterator it = values.iterator();
            for (int doc = it.nextDoc(); doc != KnnVectorValues.DocIndexIterator.NO_MORE_DOCS; doc = it.nextDoc()) {
                if (live == null || live.get(doc)) {
                    vectors.put(
                            stored.document(doc).get(ID),
                            values.vectorValue(it.index()).clone());
                }
            }
        }
        return vectors;
    }

    /** The {@value #K} nearest by {@code field}, rescored with the field's own vectors. */
    static List<ScoredId> nearest(DirectoryReader reader, String field, float[] query) throws IOException {
        return search(reader, field, query, K, true);
    }

    /** The {@code k} best by the codes' estimate alone, no rescoring. */
    static List<ScoredId> estimated(DirectoryReader reader, String field, float[] query, int k) throws IOException {
        return search(reader, field, query, k, false);
    }

    private static List<ScoredId> search(DirectoryReader reader, String field, float[] query, int k, boolean rescore)
            throws IOException {
        IndexSearcher searcher = new IndexSearcher(reader);
        TopDocs top = searcher.search(new RescoringKnnQuery(field, query, k, OVERSAMPLE, null, rescore), k);
        StoredFields stored = searcher.storedFields();
        List<ScoredId> hits = new ArrayList<>();
        for (ScoreDoc hit : top.scoreDocs) {
            hits.add(new ScoredId(stored.document(hit.doc).get(ID), hit.score));
        }
        return hits;
    }

    /** A hit: the document's id and its score. */
    record ScoredId(String id, float score) {}
}
