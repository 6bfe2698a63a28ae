package dev.compress.training.data;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Vectors with their ids, stored flat and row-major so batched products walk memory in order.
 * Row {@code i} is {@code data[i*dim .. (i+1)*dim)} and belongs to {@code ids.get(i)}.
 */
public final class VectorSet {

    private final List<String> ids;
    private final float[] data;
    private final int dim;
    private Map<String, Integer> rowOfId;

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

    public int size() {
        return ids.size();
    }

    public int dim() {
        return dim;
    }

    public List<String> ids() {
        return ids;
    }

    public String id(int row) {
        return ids.get(row);
    }

    /** The backing flat array (not a copy): callers must not modify it. */
    public float[] data() {
        return data;
    }

    public float[] row(int row) {
        return Arrays.copyOfRange(data, row * dim, (row + 1) * dim);
    }

    /** Row of {@code id}, or -1 when absent. */
    public synchronized int rowOf(String id) {
        if (rowOfId == null) {
            Map<String, Integer> m = new HashMap<>(ids.size() * 2);
            for (int i = 0; i < ids.size(); i++) {
                m.putIfAbsent(ids.get(i), i);
            }
            rowOfId = m;
        }
        return rowOfId.getOrDefault(id, -1);
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
