package dev.compress.codec.binary;

import java.io.IOException;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.DocAndFloatFeatureBuffer;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.VectorScorer;
import org.apache.lucene.store.IndexInput;
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
    private final DirectMonotonicReader offsets;
    private final VectorSimilarityFunction similarity;
    private final int[] floors;
    private final int recordBytes;
    private byte[] record;
    private final float[] vector;
    private int decodedOrd = -1;

    PackedFloatVectorValues(
            PackedFloatsEntry entry, IndexInput file, BinarizedVectorValues codes, VectorSimilarityFunction similarity)
            throws IOException {
        super(codes);
        this.entry = entry;
        this.file = file;
        this.similarity = similarity;
        int dims = codes.dimension();
        this.records = file.slice("packed-floats", entry.offset(), entry.length());
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

    /** Reads the {@code length} bytes of a record and its exceptions that start at {@code start}. */
    private int readPacked(long start, int length, byte[] into) throws IOException {
        records.seek(start);
        records.readBytes(into, 0, length);
        return (length - recordBytes) / FloatPacking.EXCEPTION_BYTES;
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
        PackedFloatVectorValues values = copy();
        DocIndexIterator iterator = values.iterator();
        return new VectorScorer() {
            @Override
            public float score() throws IOException {
                return similarity.compare(target, values.vectorValue(iterator.index()));
            }

            @Override
            public DocIdSetIterator iterator() {
                return iterator;
            }

            @Override
            public VectorScorer.Bulk bulk(DocIdSetIterator matchingDocs) throws IOException {
                return entry.packed()
                        ? new PackedBulkScorer(values, target, matchingDocs)
                        : VectorScorer.super.bulk(matchingDocs);
            }
        };
    }

    /**
     * Scores batches of documents, reading the records of {@value #READ_AHEAD} candidates before
     * decoding the first of them: the records are random reads in a file much larger than the CPU
     * caches, and reading several before using any lets their memory misses overlap, as Lucene's
     * float scorers do by scoring several vectors per pass. Scores are those of {@link #scorer}.
     */
    private static final class PackedBulkScorer implements VectorScorer.Bulk {

        private static final int READ_AHEAD = 8;

        private final PackedFloatVectorValues values;
        private final float[] target;
        private final DocIdSetIterator matchingDocs;
        private final DocIndexIterator vectors;
        private final int[] ords = new int[VectorScorer.DEFAULT_BULK_BATCH_SIZE];
        private final long[] starts = new long[VectorScorer.DEFAULT_BULK_BATCH_SIZE];
        private final int[] lengths = new int[VectorScorer.DEFAULT_BULK_BATCH_SIZE];
        private final byte[][] packed;
        private final int[] exceptions = new int[READ_AHEAD];

        PackedBulkScorer(PackedFloatVectorValues values, float[] target, DocIdSetIterator matchingDocs) {
            this.values = values;
            this.target = target;
            this.matchingDocs = matchingDocs;
            this.vectors = values.iterator();
            this.packed = new byte[READ_AHEAD][values.recordBytes];
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
                starts[i] = values.offsets.get(ords[i]);
                lengths[i] = (int) (values.offsets.get(ords[i] + 1L) - starts[i]);
            }
            float max = Float.NEGATIVE_INFINITY;
            for (int from = 0; from < size; from += READ_AHEAD) {
                int count = Math.min(READ_AHEAD, size - from);
                for (int i = 0; i < count; i++) {
                    packed[i] = ArrayUtil.growNoCopy(packed[i], lengths[from + i]);
                    exceptions[i] = values.readPacked(starts[from + i], lengths[from + i], packed[i]);
                }
                for (int i = 0; i < count; i++) {
                    values.decode(packed[i], exceptions[i], values.vector);
                    float score = values.similarity.compare(target, values.vector);
                    buffer.features[from + i] = score;
                    max = Math.max(max, score);
                }
            }
            values.decodedOrd = -1;
            return max;
        }
    }
}
