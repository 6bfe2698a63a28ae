package dev.compress.codec.binary;

import dev.compress.codec.TopCandidatesRescorer;
import java.io.IOException;
import java.util.stream.IntStream;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.DocAndFloatFeatureBuffer;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.VectorScorer;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.RandomAccessInput;
import org.apache.lucene.util.ArrayUtil;
import org.apache.lucene.util.BitUtil;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.packed.DirectMonotonicReader;

/**
 * A binary field's float32 vectors read back from the floats file, exactly as they were indexed
 * ({@link FloatPacking}); ordinals map to documents as the field's codes do. {@link #scorer} scores
 * exactly with the field's similarity.
 */
final class PackedFloatVectorValues extends CodeOrderedFloatVectorValues {

    private final PackedFloatsEntry entry;
    private final IndexInput file;
    private final IndexInput records;
    private final RandomAccessInput lines;
    private final DirectMonotonicReader offsets;
    private final VectorSimilarityFunction similarity;
    private final int[] floors;
    private final int recordBytes;
    private byte[] record;
    private final float[] vector;
    private int decodedOrd = -1;

    /** Records {@link #exactScores} and {@link #coarseBounds} read before they use the first of them. */
    private static final int READ_AHEAD = 8;

    private final byte[][] batch = new byte[READ_AHEAD][0];
    private final int[] batchExceptions = new int[READ_AHEAD];

    /** The bytes {@link #touch} loaded, kept in a field so that the compiler cannot drop the loads as unused. */
    private int touched;

    PackedFloatVectorValues(
            PackedFloatsEntry entry, IndexInput file, BinarizedVectorValues codes, VectorSimilarityFunction similarity)
            throws IOException {
        super(codes);
        this.entry = entry;
        this.file = file;
        this.similarity = similarity;
        int dims = codes.dimension();
        this.records = file.slice("packed-floats", entry.offset(), entry.length());
        this.lines = file.randomAccessSlice(entry.offset(), entry.length());
        this.vector = new float[dims];
        this.recordBytes = FloatPacking.recordBytes(dims);
        if (entry.packed()) {
            this.offsets = DirectMonotonicReader.getInstance(
                    entry.offsetsMeta(), file.randomAccessSlice(entry.offsetsStart(), entry.offsetsLength()));
            this.floors = new int[dims];
            for (int i = 0; i < dims; i++) {
                floors[i] = entry.tops()[i] - FloatPacking.WINDOW;
            }
            this.record = new byte[recordBytes];
        } else {
            this.offsets = null;
            this.floors = null;
            this.record = null;
        }
    }

    @Override
    public float[] vectorValue(int ord) throws IOException {
        if (ord == decodedOrd) {
            return vector;
        }
        if (entry.packed() == false) {
            records.seek((long) ord * vector.length * Float.BYTES);
            records.readFloats(vector, 0, vector.length);
        } else {
            long start = offsets.get(ord);
            int length = (int) (offsets.get(ord + 1L) - start);
            record = ArrayUtil.growNoCopy(record, length);
            decode(record, readPacked(start, length, record), vector);
        }
        decodedOrd = ord;
        return vector;
    }

    /** Whether the records are packed ({@link FloatPacking}) rather than plain float32. */
    boolean packed() {
        return entry.packed();
    }

    VectorSimilarityFunction similarity() {
        return similarity;
    }

    /** Where the packed record of {@code ord} and its exceptions start; they end where {@code ord + 1}'s start. */
    long recordStart(long ord) {
        return offsets.get(ord);
    }

    /**
     * Scores {@code target} exactly against records {@code which[0..count)}, indexes into {@code
     * starts} (where a record and its exceptions start) and {@code lengths} (their bytes), into
     * {@code scores[0..count)}. The records are random reads in a file much larger than the CPU
     * caches: each batch of {@value #READ_AHEAD} is touched and read before the first of them is
     * decoded, so that their memory misses overlap, as Lucene's float scorers overlap theirs by
     * scoring several vectors per pass.
     */
    void exactScores(float[] target, long[] starts, int[] lengths, int[] which, int count, float[] scores)
            throws IOException {
        for (int from = 0; from < count; from += READ_AHEAD) {
            int size = Math.min(READ_AHEAD, count - from);
            for (int i = 0; i < size; i++) {
                int r = which[from + i];
                touch(starts[r], starts[r] + lengths[r]);
            }
            for (int i = 0; i < size; i++) {
                int r = which[from + i];
                batch[i] = ArrayUtil.growNoCopy(batch[i], lengths[r]);
                batchExceptions[i] = readPacked(starts[r], lengths[r], batch[i]);
            }
            for (int i = 0; i < size; i++) {
                decode(batch[i], batchExceptions[i], vector);
                scores[from + i] = similarity.compare(target, vector);
            }
        }
        decodedOrd = -1;
    }

    /**
     * Bounds, with {@code bounds}, the scores of {@code target} against records {@code 0..count)} of
     * {@code starts} and {@code lengths} (as in {@link #exactScores}) into {@code lower[i]} and {@code
     * upper[i]}, from each record's top 16 bits per component and its exceptions ({@link #coarseSums}),
     * read in batches as {@link #exactScores} reads whole records.
     */
    void coarseBounds(
            float[] target,
            long[] starts,
            int[] lengths,
            int count,
            CoarseScoreBounds bounds,
            double[] lower,
            double[] upper)
            throws IOException {
        float[] sums = new float[3];
        for (int from = 0; from < count; from += READ_AHEAD) {
            int size = Math.min(READ_AHEAD, count - from);
            for (int i = 0; i < size; i++) {
                touch(coarseStart(starts[from + i]), starts[from + i] + lengths[from + i]);
            }
            for (int i = 0; i < size; i++) {
                batch[i] = ArrayUtil.growNoCopy(batch[i], lengths[from + i]);
                batchExceptions[i] = readCoarse(starts[from + i], lengths[from + i], batch[i]);
            }
            for (int i = 0; i < size; i++) {
                coarseSums(batch[i], batchExceptions[i], target, sums);
                bounds.bound(sums, lower, upper, from + i);
            }
        }
    }

    /** Reads the {@code length} bytes of a record and its exceptions that start at {@code start}. */
    private int readPacked(long start, int length, byte[] into) throws IOException {
        records.seek(start);
        records.readBytes(into, 0, length);
        return (length - recordBytes) / FloatPacking.EXCEPTION_BYTES;
    }

    /**
     * Loads one byte of every cache line of bytes {@code from} to {@code to} (exclusive): a loop of
     * independent loads, which the CPU keeps in flight together, so that the reads that follow find
     * the lines in cache rather than waiting on each miss in turn.
     */
    private void touch(long from, long to) throws IOException {
        int sum = 0;
        for (long at = from; at < to; at += SignBinarizer.CACHE_LINE) {
            sum += lines.readByte(at);
        }
        touched += sum;
    }

    /** Where the byte plane of the record that starts at {@code start} starts: what {@link #readCoarse} reads from. */
    private long coarseStart(long start) {
        return start + 2L * vector.length;
    }

    /**
     * Reads the part of a record from its byte plane on, with its exceptions ({@code length} bytes of
     * record and exceptions start at {@code start}), for {@link #coarseSums}.
     */
    private int readCoarse(long start, int length, byte[] into) throws IOException {
        long from = coarseStart(start);
        records.seek(from);
        records.readBytes(into, 0, (int) (start + length - from));
        return (length - recordBytes) / FloatPacking.EXCEPTION_BYTES;
    }

    /** The coarse sums of a record read by {@link #readCoarse}, its exceptions added exactly. */
    private void coarseSums(byte[] coarse, int exceptions, float[] query, float[] sums) {
        FloatPacking.coarseSums(coarse, floors, query, sums);
        for (int i = 0, at = recordBytes - 2 * vector.length; i < exceptions; i++, at += FloatPacking.EXCEPTION_BYTES) {
            int component = (int) BitUtil.VH_LE_INT.get(coarse, at);
            float value = Float.intBitsToFloat((int) BitUtil.VH_LE_INT.get(coarse, at + Integer.BYTES));
            float product = query[component] * value;
            sums[0] += product;
            sums[1] += Math.abs(product);
            sums[2] += value * value;
        }
    }

    /** Decodes a record read by {@link #readPacked} and puts its exceptions back. */
    private void decode(byte[] packed, int exceptions, float[] out) {
        FloatPacking.decode(packed, floors, out);
        for (int i = 0, at = recordBytes; i < exceptions; i++, at += FloatPacking.EXCEPTION_BYTES) {
            out[(int) BitUtil.VH_LE_INT.get(packed, at)] =
                    Float.intBitsToFloat((int) BitUtil.VH_LE_INT.get(packed, at + Integer.BYTES));
        }
    }

    @Override
    public PackedFloatVectorValues copy() throws IOException {
        return new PackedFloatVectorValues(entry, file, codes.copy(), similarity);
    }

    @Override
    public VectorScorer scorer(float[] target) throws IOException {
        if (size() == 0) {
            return null;
        }
        return new ExactScorer(copy(), target);
    }

    /**
     * Scores documents exactly with the field's similarity; where the floats are packed it also finds
     * the best of a set of candidates in two passes ({@link TwoPassRescorer}).
     */
    private static final class ExactScorer implements VectorScorer, TopCandidatesRescorer {

        private final PackedFloatVectorValues values;
        private final float[] target;
        private final DocIndexIterator iterator;

        ExactScorer(PackedFloatVectorValues values, float[] target) {
            this.values = values;
            this.target = target;
            this.iterator = values.iterator();
        }

        @Override
        public float score() throws IOException {
            return values.similarity.compare(target, values.vectorValue(iterator.index()));
        }

        @Override
        public DocIdSetIterator iterator() {
            return iterator;
        }

        @Override
        public VectorScorer.Bulk bulk(DocIdSetIterator matchingDocs) throws IOException {
            return values.entry.packed()
                    ? new PackedBulkScorer(values, target, matchingDocs)
                    : VectorScorer.super.bulk(matchingDocs);
        }

        @Override
        public void rescoreBest(int[] docs, int count, int n, DocAndFloatFeatureBuffer out) throws IOException {
            new TwoPassRescorer(values, target).rescoreBest(docs, count, n, out);
        }
    }

    /** Scores batches of documents exactly through {@link #exactScores}; scores are those of {@link #scorer}. */
    private static final class PackedBulkScorer implements VectorScorer.Bulk {

        /** 0, 1, 2, ...: every record of a batch, in order. */
        private static final int[] ALL =
                IntStream.range(0, VectorScorer.DEFAULT_BULK_BATCH_SIZE).toArray();

        private final PackedFloatVectorValues values;
        private final float[] target;
        private final DocIdSetIterator matchingDocs;
        private final DocIndexIterator vectors;
        private final int[] ords = new int[VectorScorer.DEFAULT_BULK_BATCH_SIZE];
        private final long[] starts = new long[VectorScorer.DEFAULT_BULK_BATCH_SIZE];
        private final int[] lengths = new int[VectorScorer.DEFAULT_BULK_BATCH_SIZE];

        PackedBulkScorer(PackedFloatVectorValues values, float[] target, DocIdSetIterator matchingDocs) {
            this.values = values;
            this.target = target;
            this.matchingDocs = matchingDocs;
            this.vectors = values.iterator();
        }

        @Override
        public float nextDocsAndScores(int upTo, Bits liveDocs, DocAndFloatFeatureBuffer buffer) throws IOException {
            buffer.growNoCopy(VectorScorer.DEFAULT_BULK_BATCH_SIZE);
            int size = 0;
            int doc = matchingDocs.docID() == -1 ? matchingDocs.nextDoc() : matchingDocs.docID();
            for (; doc < upTo && size < VectorScorer.DEFAULT_BULK_BATCH_SIZE; doc = matchingDocs.nextDoc()) {
                if (liveDocs != null && liveDocs.get(doc) == false) {
                    continue;
                }
                if (vectors.docID() < doc) {
                    vectors.advance(doc);
                }
                if (vectors.docID() == doc) {
                    buffer.docs[size] = doc;
                    ords[size++] = vectors.index();
                }
            }
            buffer.size = size;
            // the offsets first, for all: each is a random read of its own
            for (int i = 0; i < size; i++) {
                starts[i] = values.recordStart(ords[i]);
                lengths[i] = (int) (values.recordStart(ords[i] + 1L) - starts[i]);
            }
            values.exactScores(target, starts, lengths, ALL, size, buffer.features);
            float max = Float.NEGATIVE_INFINITY;
            for (int i = 0; i < size; i++) {
                max = Math.max(max, buffer.features[i]);
            }
            return max;
        }
    }
}
