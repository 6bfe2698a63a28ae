package dev.compress.training.data;

import java.util.List;

/**
 * A view of another source's rows passed through a block function when read (an encoded corpus that is
 * never held whole). Each {@link #readBlock} is one call of the function, so a scan by
 * {@link VectorRows#forEachBlock} gives a batch-sensitive function the same batches as
 * {@link VectorSet#transform}.
 */
final class TransformedRows implements VectorRows {

    private final VectorRows source;
    private final int dim;
    private final BlockFunction f;

    TransformedRows(VectorRows source, int dim, BlockFunction f) {
        if (dim <= 0) {
            throw new IllegalArgumentException("dim must be positive, got " + dim);
        }
        this.source = source;
        this.dim = dim;
        this.f = f;
    }

    @Override
    public int size() {
        return source.size();
    }

    @Override
    public int dim() {
        return dim;
    }

    @Override
    public List<String> ids() {
        return source.ids();
    }

    @Override
    public int rowOf(String id) {
        return source.rowOf(id);
    }

    @Override
    public void readBlock(int start, int count, float[] into, int offset) {
        float[] in = new float[count * source.dim()];
        source.readBlock(start, count, in, 0);
        float[] out = f.apply(in, count);
        if (out.length != count * dim) {
            throw new IllegalStateException(
                    "block function returned " + out.length + " values for " + count + " rows of " + dim);
        }
        System.arraycopy(out, 0, into, offset, out.length);
    }
}
