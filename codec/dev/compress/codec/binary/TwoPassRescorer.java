package dev.compress.codec.binary;

import dev.compress.codec.TopCandidatesRescorer;
import java.io.IOException;
import java.util.Arrays;
import org.apache.lucene.index.KnnVectorValues.DocIndexIterator;
import org.apache.lucene.search.DocAndFloatFeatureBuffer;

/**
 * {@link TopCandidatesRescorer} for a binary field's packed floats, in two passes. The first reads
 * each candidate's top 16 bits per component (the byte plane and the nibbles of its record, and its
 * exceptions: 576 of a 384-d record's 1,344 bytes) and bounds the similarity Lucene computes on the
 * stored floats ({@link CoarseScoreBounds}). The second reads whole, and scores exactly, only the
 * candidates whose upper bound reaches the n-th highest lower bound: every other candidate is below
 * n candidates for certain, so the n best are those of scoring every candidate exactly.
 *
 * <p>Plain float32 records, similarities without coarse bounds (Euclidean) and candidate sets no
 * larger than n are scored exactly in one pass.
 */
final class TwoPassRescorer {

    private final PackedFloatVectorValues values;
    private final float[] target;

    TwoPassRescorer(PackedFloatVectorValues values, float[] target) {
        this.values = values;
        this.target = target;
    }

    /** See {@link TopCandidatesRescorer#rescoreBest}. */
    void rescoreBest(int[] docs, int count, int n, DocAndFloatFeatureBuffer out) throws IOException {
        int[] ords = ordinals(docs, count);
        out.growNoCopy(count);
        out.size = 0;
        if (values.packed() == false) {
            for (int i = 0; i < count; i++) {
                add(out, docs[i], values.similarity().compare(target, values.vectorValue(ords[i])));
            }
            return;
        }
        long[] starts = new long[count];
        int[] lengths = new int[count];
        for (int i = 0; i < count; i++) {
            starts[i] = values.recordStart(ords[i]);
            lengths[i] = (int) (values.recordStart(ords[i] + 1L) - starts[i]);
        }
        int[] kept = new int[count];
        int keptCount;
        if (count > n && CoarseScoreBounds.supports(values.similarity())) {
            keptCount = shortlist(starts, lengths, count, n, kept);
        } else {
            for (int i = 0; i < count; i++) {
                kept[i] = i;
            }
            keptCount = count;
        }
        float[] scores = new float[keptCount];
        values.exactScores(target, starts, lengths, kept, keptCount, scores);
        for (int i = 0; i < keptCount; i++) {
            add(out, docs[kept[i]], scores[i]);
        }
    }

    /**
     * The first pass: writes into {@code kept} the candidates (indexes into {@code starts}) whose
     * upper bound reaches the n-th highest lower bound, in order, and returns how many.
     */
    private int shortlist(long[] starts, int[] lengths, int count, int n, int[] kept) throws IOException {
        double[] lower = new double[count];
        double[] upper = new double[count];
        values.coarseBounds(
                target, starts, lengths, count, new CoarseScoreBounds(values.similarity(), target), lower, upper);
        double[] sorted = Arrays.copyOf(lower, count);
        Arrays.sort(sorted);
        double threshold = sorted[count - n];
        int keptCount = 0;
        for (int i = 0; i < count; i++) {
            if (upper[i] >= threshold) {
                kept[keptCount++] = i;
            }
        }
        return keptCount;
    }

    private int[] ordinals(int[] docs, int count) throws IOException {
        int[] ords = new int[count];
        DocIndexIterator vectors = values.iterator();
        for (int i = 0; i < count; i++) {
            if (vectors.docID() < docs[i]) {
                vectors.advance(docs[i]);
            }
            if (vectors.docID() != docs[i]) {
                throw new IllegalStateException("candidate document " + docs[i] + " has no vector in the field");
            }
            ords[i] = vectors.index();
        }
        return ords;
    }

    private static void add(DocAndFloatFeatureBuffer out, int doc, float score) {
        out.docs[out.size] = doc;
        out.features[out.size++] = score;
    }
}
