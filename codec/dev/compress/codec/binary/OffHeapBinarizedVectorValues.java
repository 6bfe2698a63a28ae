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
  private final byte[] code;
  private final long[] words;
  private final float[] corrections = new float[SignBinarizer.CORRECTIONS];
  private int codeOrd = -1;
  private int wordsOrd = -1;
  private int correctionsOrd = -1;

  OffHeapBinarizedVectorValues(
      int dims,
      int size,
      float[] centroid,
      float[] scale,
      VectorSimilarityFunction similarity,
      IndexInput codes)
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
    this.words = new long[CodeWords.words(dims)];
  }

  /** Values of a field described by {@code entry}, whose codes live in {@code data}. */
  static OffHeapBinarizedVectorValues load(BinaryFieldEntry entry, VectorSimilarityFunction similarity, IndexInput data)
      throws IOException {
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
      codes.seek((long) ord * recordBytes);
      codes.readBytes(code, 0, code.length);
      readCorrections(ord);
      codeOrd = ord;
    }
    return code;
  }

  /** Reads the code's whole 8-byte words as longs and assembles the last, partial one. */
  @Override
  public long[] codeWords(int ord) throws IOException {
    if (ord != wordsOrd) {
      codes.seek((long) ord * recordBytes);
      int fullWords = code.length >>> 3;
      codes.readLongs(words, 0, fullWords);
      int tailBytes = code.length & 7;
      if (tailBytes > 0) {
        long tail = 0;
        for (int i = 0; i < tailBytes; i++) {
          tail |= (codes.readByte() & 0xFFL) << (i << 3);
        }
        words[fullWords] = tail;
      }
      readCorrections(ord);
      wordsOrd = ord;
    }
    return words;
  }

  @Override
  public float[] corrections(int ord) throws IOException {
    if (ord != correctionsOrd) {
      codes.seek((long) ord * recordBytes + code.length);
      readCorrections(ord);
    }
    return corrections;
  }

  /**
   * Absolute reads of the whole batch before any score uses them: at a million vectors each record
   * is a cache (and TLB) miss, and a graph walk scores its neighbours in batches, so overlapping
   * the misses rather than taking them one score at a time is what the walk's speed depends on
   * (1.6x per query at 1M, before records were aligned to cache lines). A code's last, partial
   * word is read as a whole long and masked: the corrections after every code keep that read
   * inside the record.
   */
  @Override
  public void readRecords(int[] ords, int count, long[] words, float[] corrections) throws IOException {
    if (count == 0) {
      return;
    }
    int stride = this.words.length;
    int fullWords = code.length >>> 3;
    int tailBytes = code.length & 7;
    long tailMask = (1L << (tailBytes << 3)) - 1;
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
      long base = (long) ords[i] * recordBytes;
      for (int j = 0; j < fullWords; j++) {
        words[w + j] = records.readLong(base + ((long) j << 3));
      }
      if (tailBytes > 0) {
        words[w + fullWords] = records.readLong(base + ((long) fullWords << 3)) & tailMask;
      }
      long at = base + code.length;
      for (int j = 0; j < SignBinarizer.CORRECTIONS; j++) {
        corrections[c + j] = Float.intBitsToFloat(records.readInt(at + ((long) j << 2)));
      }
    }
  }

  /** Reads the corrections that follow a code; the input must be positioned on them. */
  private void readCorrections(int ord) throws IOException {
    codes.readFloats(corrections, 0, corrections.length);
    correctionsOrd = ord;
  }

  /** Every document of the segment has a vector: ordinal = document. */
  static final class Dense extends OffHeapBinarizedVectorValues {
    Dense(int dims, int size, float[] centroid, float[] scale, VectorSimilarityFunction similarity, IndexInput codes)
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
