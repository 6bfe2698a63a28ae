package dev.compress.codec.binary;

import java.io.IOException;
import org.apache.lucene.codecs.lucene90.IndexedDISI;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.RandomAccessInput;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.packed.DirectMonotonicReader;

/** Codes read from a slice of an index file, one fixed-length record (code, corrections) per ordinal. */
abstract class OffHeapBinarizedVectorValues extends BinarizedVectorValues {

    protected final int dims;
    protected final int size;
    protected final float[] centroid;
    protected final float[] scale;
    protected final VectorSimilarityFunction similarity;
    protected final IndexInput codes;
    private final RandomAccessInput records;
    private final int recordBytes;
    private final int fullWords;
    private final long tailMask;
    private final byte[] code;
    private final long[] words;
    private final float[] corrections = new float[SignBinarizer.CORRECTIONS];
    private int codeOrd = -1;
    private int wordsOrd = -1;
    private int correctionsOrd = -1;

    OffHeapBinarizedVectorValues(
            int dims, int size, float[] centroid, float[] scale, VectorSimilarityFunction similarity, IndexInput codes)
            throws IOException {
        this.dims = dims;
        this.size = size;
        this.centroid = centroid;
        this.scale = scale;
        this.similarity = similarity;
        this.codes = codes;
        this.records = codes.randomAccessSlice(0, codes.length());
        this.recordBytes = SignBinarizer.recordBytes(dims);
        this.code = new byte[SignBinarizer.codeBytes(dims)];
        this.fullWords = code.length >>> 3;
        this.tailMask = (1L << ((code.length & 7) << 3)) - 1;
        this.words = new long[CodeWords.words(dims)];
    }

    /** Values of a field described by {@code entry}, whose codes live in {@code data}. */
    static OffHeapBinarizedVectorValues load(
            BinaryFieldEntry entry, VectorSimilarityFunction similarity, IndexInput data) throws IOException {
        IndexInput slice = data.slice("binary-codes", entry.codesOffset(), entry.codesLength());
        if (entry.docs().isDense() || entry.docs().isEmpty()) {
            return new Dense(entry.dims(), entry.size(), entry.centroid(), entry.scale(), similarity, slice);
        }
        return new Sparse(entry, similarity, data, slice);
    }

    @Override
    public int dimension() {
        return dims;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public float[] centroid() {
        return centroid;
    }

    @Override
    public float[] scale() {
        return scale;
    }

    @Override
    public VectorSimilarityFunction similarity() {
        return similarity;
    }

    @Override
    public byte[] vectorValue(int ord) throws IOException {
        if (ord != codeOrd) {
            records.readBytes((long) ord * recordBytes, code, 0, code.length);
            codeOrd = ord;
        }
        return code;
    }

    @Override
    public long[] codeWords(int ord) throws IOException {
        if (ord != wordsOrd) {
            readRecord(ord, words, 0, corrections, 0);
            correctionsOrd = ord;
            wordsOrd = ord;
        }
        return words;
    }

    @Override
    public float[] corrections(int ord) throws IOException {
        if (ord != correctionsOrd) {
            readCorrections(ord, corrections, 0);
            correctionsOrd = ord;
        }
        return corrections;
    }

    /**
     * Absolute reads of the whole batch before any score uses them: at a million vectors each record
     * is a cache (and TLB) miss, and a graph walk scores its neighbours in batches, so overlapping
     * the misses rather than taking them one score at a time is what the walk's speed depends on once
     * the codes no longer fit the CPU caches. CPU time per query at a million vectors: {@code
     * bench/run full codec} with {@code -Dbench.synthetic.docs=1000000}; per candidate: {@code
     * bench/run quick kernels}.
     */
    @Override
    public void readRecords(int[] ords, int count, long[] words, float[] corrections) throws IOException {
        if (count == 0) {
            return;
        }
        int stride = this.words.length;
        // First pass: one load per cache line of every record, in a loop short enough for the CPU to
        // keep all those misses in flight; the second pass then reads from cache.
        int touched = 0;
        for (int i = 0; i < count; i++) {
            long base = (long) ords[i] * recordBytes;
            for (int line = 0; line < recordBytes; line += SignBinarizer.CACHE_LINE) {
                touched += records.readByte(base + line);
            }
        }
        words[0] = touched; // keeps the loads alive; the second pass overwrites it
        for (int i = 0, w = 0, c = 0; i < count; i++, w += stride, c += SignBinarizer.CORRECTIONS) {
            readRecord(ords[i], words, w, corrections, c);
        }
    }

    /**
     * Reads record {@code ord}: its code as words into {@code words[w..]}, its corrections into
     * {@code corrections[c..]}. A code's last, partial word is read as a whole long and masked: the
     * corrections after every code keep that read inside the record.
     */
    private void readRecord(int ord, long[] words, int w, float[] corrections, int c) throws IOException {
        long base = (long) ord * recordBytes;
        for (int j = 0; j < fullWords; j++) {
            words[w + j] = records.readLong(base + ((long) j << 3));
        }
        if (tailMask != 0) {
            words[w + fullWords] = records.readLong(base + ((long) fullWords << 3)) & tailMask;
        }
        readCorrections(ord, corrections, c);
    }

    /** Reads the corrections of record {@code ord}, which follow its code, into {@code out[c..]}. */
    private void readCorrections(int ord, float[] out, int c) throws IOException {
        long at = (long) ord * recordBytes + code.length;
        for (int j = 0; j < SignBinarizer.CORRECTIONS; j++) {
            out[c + j] = Float.intBitsToFloat(records.readInt(at + ((long) j << 2)));
        }
    }

    /** Every document of the segment has a vector: ordinal = document. */
    static final class Dense extends OffHeapBinarizedVectorValues {
        Dense(
                int dims,
                int size,
                float[] centroid,
                float[] scale,
                VectorSimilarityFunction similarity,
                IndexInput codes)
                throws IOException {
            super(dims, size, centroid, scale, similarity, codes);
        }

        @Override
        public Dense copy() throws IOException {
            return new Dense(dims, size, centroid, scale, similarity, codes.clone());
        }

        @Override
        public DocIndexIterator iterator() {
            return createDenseIterator();
        }
    }

    /** Some documents lack a vector: ordinals map to documents through the stored doc set. */
    static final class Sparse extends OffHeapBinarizedVectorValues {
        private final BinaryFieldEntry entry;
        private final IndexInput data;
        private final DirectMonotonicReader ordToDoc;

        Sparse(BinaryFieldEntry entry, VectorSimilarityFunction similarity, IndexInput data, IndexInput codes)
                throws IOException {
            super(entry.dims(), entry.size(), entry.centroid(), entry.scale(), similarity, codes);
            this.entry = entry;
            this.data = data;
            this.ordToDoc = entry.docs().getDirectMonotonicReader(data);
        }

        @Override
        public Sparse copy() throws IOException {
            return new Sparse(entry, similarity, data, codes.clone());
        }

        @Override
        public int ordToDoc(int ord) {
            return (int) ordToDoc.get(ord);
        }

        @Override
        public Bits getAcceptOrds(Bits acceptDocs) {
            if (acceptDocs == null) {
                return null;
            }
            return new Bits() {
                @Override
                public boolean get(int ord) {
                    return acceptDocs.get(ordToDoc(ord));
                }

                @Override
                public int length() {
                    return size;
                }
            };
        }

        @Override
        public DocIndexIterator iterator() {
            try {
                IndexedDISI disi = entry.docs().getIndexedDISI(data.clone());
                return IndexedDISI.asDocIndexIterator(disi);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    }
}
