package dev.compress.training.data;

import java.util.List;

/**
 * Vectors with ids, read by blocks of rows. {@link VectorSet} holds them on the heap; {@link MappedVectors}
 * leaves a corpus in its file, so code written against this interface (search, mining, evaluation,
 * trainers) keeps its memory bounded by a block, whatever the corpus size.
 */
public interface VectorRows {

    /**
     * Rows per block when a whole source is scanned or transformed. It equals the DJL batch the trainers
     * encode with, so a lazily transformed corpus is encoded in the same batches as an in-heap one.
     */
    int BLOCK_ROWS = 1024;

    /** Maps {@code count} rows of {@code inDim} values (row-major) to {@code count} rows of the output dimension. */
    @FunctionalInterface
    interface BlockFunction {
        float[] apply(float[] rows, int count);
    }

    /** Receives each block of a scan: rows {@code [start, start + count)} in {@code rows[0 .. count * dim)}. */
    @FunctionalInterface
    interface BlockConsumer {
        void accept(int start, int count, float[] rows);
    }

    int size();

    int dim();

    List<String> ids();

    default String id(int row) {
        return ids().get(row);
    }

    /** Row of {@code id}, or -1 when absent. */
    int rowOf(String id);

    /** Copies rows {@code [start, start + count)} into {@code into} from index {@code offset}, row-major. */
    void readBlock(int start, int count, float[] into, int offset);

    default float[] row(int row) {
        float[] out = new float[dim()];
        readBlock(row, 1, out, 0);
        return out;
    }

    /** Visits every row in order, {@link #BLOCK_ROWS} at a time, through one reused buffer. */
    default void forEachBlock(BlockConsumer consumer) {
        float[] buffer = new float[Math.min(BLOCK_ROWS, size()) * dim()];
        for (int start = 0; start < size(); start += BLOCK_ROWS) {
            int count = Math.min(BLOCK_ROWS, size() - start);
            readBlock(start, count, buffer, 0);
            consumer.accept(start, count, buffer);
        }
    }

    /**
     * These rows passed through {@code f} (output dimension {@code dim}), same ids. This default is a view
     * that transforms each block when it is read, never holding the result whole; {@link VectorSet}
     * overrides it to compute the result once, since a set on the heap has room for its transform.
     */
    default VectorRows transform(int dim, BlockFunction f) {
        return new TransformedRows(this, dim, f);
    }
}
