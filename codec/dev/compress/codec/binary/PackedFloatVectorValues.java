package dev.compress.codec.binary;

import java.io.IOException;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.VectorScorer;
import org.apache.lucene.store.IndexInput;
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
    private final byte[] record;
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
        if (entry.packed()) {
            this.offsets = DirectMonotonicReader.getInstance(
                    entry.offsetsMeta(), file.randomAccessSlice(entry.offsetsStart(), entry.offsetsLength()));
            this.floors = new int[dims];
            for (int i = 0; i < dims; i++) {
                floors[i] = entry.tops()[i] - FloatPacking.WINDOW;
            }
            this.record = new byte[FloatPacking.recordBytes(dims)];
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
            long exceptions = (offsets.get(ord + 1L) - start - record.length) / FloatPacking.EXCEPTION_BYTES;
            records.seek(start);
            records.readBytes(record, 0, record.length);
            FloatPacking.decode(record, floors, vector);
            for (long i = 0; i < exceptions; i++) {
                int component = records.readInt();
                vector[component] = Float.intBitsToFloat(records.readInt());
            }
        }
        decodedOrd = ord;
        return vector;
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
        };
    }
}
