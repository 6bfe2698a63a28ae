package dev.compress.training.data;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Vectors with their ids on the heap, stored flat and row-major so batched products walk memory in order.
 * Row {@code i} is {@code data[i*dim .. (i+1)*dim)} and belongs to {@code ids.get(i)}. For queries,
 * encoded outputs and corpora small enough to hold; a larger corpus stays in its file ({@link MappedVectors}).
 */
public final class VectorSet implements VectorRows {

    private final List<String> ids;
    private final float[] data;
    private final int dim;
    private final RowIndex rowIndex;

    public VectorSet(List<String> ids, float[] data, int dim) {
        Objects.requireNonNull(ids, "ids");
        Objects.requireNonNull(data, "data");
        if (dim <= 0) {
            throw new IllegalArgumentException("dim must be positive, got " + dim);
        }
        if ((long) ids.size() * dim != data.length) {
            throw new IllegalArgumentException(
                    "data holds " + data.length + " floats, expected ids (" + ids.size() + ") x dim (" + dim + ")");
        }
        this.ids = List.copyOf(ids);
        this.rowIndex = new RowIndex(this.ids);
        this.data = data;
        this.dim = dim;
    }

    /** Builds a set from rows; every row must have the same length. */
    public static VectorSet ofRows(List<String> ids, float[][] rows) {
        if (rows.length == 0) {
            throw new IllegalArgumentException("no rows");
        }
        int dim = rows[0].length;
        float[] flat = new float[rows.length * dim];
        for (int i = 0; i < rows.length; i++) {
            if (rows[i].length != dim) {
                throw new IllegalArgumentException("row " + i + " has " + rows[i].length + " values, expected " + dim);
            }
            System.arraycopy(rows[i], 0, flat, i * dim, dim);
        }
        return new VectorSet(ids, flat, dim);
    }

    @Override
    public int size() {
        return ids.size();
    }

    @Override
    public int dim() {
        return dim;
    }

    @Override
    public List<String> ids() {
        return ids;
    }

    @Override
    public String id(int row) {
        return ids.get(row);
    }

    /** The backing flat array (not a copy): callers must not modify it. */
    public float[] data() {
        return data;
    }

    @Override
    public float[] row(int row) {
        return Arrays.copyOfRange(data, row * dim, (row + 1) * dim);
    }

    @Override
    public void readBlock(int start, int count, float[] into, int offset) {
        System.arraycopy(data, start * dim, into, offset, count * dim);
    }

    /** Computed now, block by block (the batches a lazy view would use): a set on the heap has room for its transform. */
    @Override
    public VectorSet transform(int outDim, BlockFunction f) {
        float[] out = new float[size() * outDim];
        for (int start = 0; start < size(); start += BLOCK_ROWS) {
            int count = Math.min(BLOCK_ROWS, size() - start);
            float[] y = f.apply(Arrays.copyOfRange(data, start * dim, (start + count) * dim), count);
            if (y.length != count * outDim) {
                throw new IllegalStateException(
                        "block function returned " + y.length + " values for " + count + " rows of " + outDim);
            }
            System.arraycopy(y, 0, out, start * outDim, y.length);
        }
        return new VectorSet(ids, out, outDim);
    }

    @Override
    public int rowOf(String id) {
        return rowIndex.rowOf(id);
    }

    /** A new set holding the given rows in the given order. */
    public VectorSet select(int[] rows) {
        float[] out = new float[rows.length * dim];
        String[] selectedIds = new String[rows.length];
        for (int i = 0; i < rows.length; i++) {
            System.arraycopy(data, rows[i] * dim, out, i * dim, dim);
            selectedIds[i] = ids.get(rows[i]);
        }
        return new VectorSet(List.of(selectedIds), out, dim);
    }
}
