package dev.compress.codec.search;

import java.util.Arrays;

/**
 * The dimensions of a query kept by a per-query mask (seed 002, query-aware dimension selection).
 * A masked query scores a document by the inner product over the kept dimensions only, {@code
 * sum_{j kept} q_j d_j}; documents are unchanged.
 *
 * <p>Bits are packed like sign codes (eight per byte, least significant bit first), so a binary
 * field's kernels AND them with a code directly.
 */
public final class QueryMask {

  private final int dims;
  private final byte[] bits;
  private final int kept;

  private QueryMask(int dims, byte[] bits) {
    this.dims = dims;
    this.bits = bits;
    int count = 0;
    for (byte b : bits) {
      count += Integer.bitCount(b & 0xFF);
    }
    if (count == 0) {
      throw new IllegalArgumentException("a mask must keep at least one dimension");
    }
    this.kept = count;
  }

  /** The mask keeping the given dimensions (each in [0, dims), no duplicates needed). */
  public static QueryMask of(int dims, int[] keptDimensions) {
    if (dims < 1) {
      throw new IllegalArgumentException("dims must be positive, got " + dims);
    }
    byte[] bits = new byte[(dims + 7) >>> 3];
    for (int j : keptDimensions) {
      if (j < 0 || j >= dims) {
        throw new IllegalArgumentException("dimension " + j + " is outside [0, " + dims + ")");
      }
      bits[j >>> 3] |= (byte) (1 << (j & 7));
    }
    return new QueryMask(dims, bits);
  }

  /** The mask keeping the dimensions where {@code kept} is true. */
  public static QueryMask of(boolean[] kept) {
    byte[] bits = new byte[(kept.length + 7) >>> 3];
    for (int j = 0; j < kept.length; j++) {
      if (kept[j]) {
        bits[j >>> 3] |= (byte) (1 << (j & 7));
      }
    }
    return new QueryMask(kept.length, bits);
  }

  public int dimension() {
    return dims;
  }

  /** Number of kept dimensions. */
  public int keptCount() {
    return kept;
  }

  public boolean isKept(int j) {
    return (bits[j >>> 3] & (1 << (j & 7))) != 0;
  }

  /** The packed bits; do not modify. */
  public byte[] bits() {
    return bits;
  }

  /** The kept dimensions, ascending. */
  public int[] keptDimensions() {
    int[] out = new int[kept];
    int n = 0;
    for (int j = 0; j < dims; j++) {
      if (isKept(j)) {
        out[n++] = j;
      }
    }
    return out;
  }

  /** A copy of {@code query} with the dimensions this mask drops set to zero. */
  public float[] apply(float[] query) {
    if (query.length != dims) {
      throw new IllegalArgumentException("mask has " + dims + " dimensions, query has " + query.length);
    }
    float[] out = new float[dims];
    for (int j = 0; j < dims; j++) {
      if (isKept(j)) {
        out[j] = query[j];
      }
    }
    return out;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof QueryMask m && m.dims == dims && Arrays.equals(m.bits, bits);
  }

  @Override
  public int hashCode() {
    return 31 * dims + Arrays.hashCode(bits);
  }

  @Override
  public String toString() {
    return "QueryMask(" + kept + "/" + dims + ")";
  }
}
