package dev.compress.training.data;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * A vector file ({@code .f32}: little-endian float32, row-major, no header) left on disk and memory-mapped,
 * so a corpus larger than the heap (or than 2^31 floats) can be searched and trained on: only the ids and
 * the blocks being read occupy the heap, the page cache holds the rest. One mapping covers at most 2 GB
 * ({@link FileChannel#map} takes an int size), so the file is mapped in chunks of whole rows and a row
 * never straddles two chunks.
 */
public final class MappedVectors implements VectorRows {

    private final List<String> ids;
    private final RowIndex rowIndex;
    private final int dim;
    private final int rowsPerChunk;
    private final FloatBuffer[] chunks;

    /** Maps {@code f32}, which must hold exactly {@code ids.size()} rows of {@code dim} floats. */
    public MappedVectors(Path f32, List<String> ids, int dim) throws IOException {
        this(f32, ids, dim, Integer.MAX_VALUE);
    }

    /** @param maxChunkBytes largest mapping; tests pass a few bytes to exercise reads across chunks */
    MappedVectors(Path f32, List<String> ids, int dim, long maxChunkBytes) throws IOException {
        if (dim <= 0) {
            throw new IllegalArgumentException("dim must be positive, got " + dim);
        }
        long rowBytes = 4L * dim;
        long bytes = Files.size(f32);
        if (bytes != rowBytes * ids.size()) {
            throw new IOException(
                    f32 + " has " + bytes + " bytes, expected " + ids.size() + " rows x " + dim + " float32");
        }
        this.ids = List.copyOf(ids);
        this.rowIndex = new RowIndex(this.ids);
        this.dim = dim;
        this.rowsPerChunk = (int) Math.max(1, Math.min(Integer.MAX_VALUE, maxChunkBytes / rowBytes));
        this.chunks = new FloatBuffer[(int) ((ids.size() + (long) rowsPerChunk - 1) / rowsPerChunk)];
        try (FileChannel channel = FileChannel.open(f32, StandardOpenOption.READ)) {
            for (int c = 0; c < chunks.length; c++) {
                long firstRow = (long) c * rowsPerChunk;
                long rows = Math.min(rowsPerChunk, ids.size() - firstRow);
                // the mapping outlives the channel; the buffer's absolute gets are safe from several threads
                chunks[c] = channel.map(FileChannel.MapMode.READ_ONLY, firstRow * rowBytes, rows * rowBytes)
                        .order(ByteOrder.LITTLE_ENDIAN)
                        .asFloatBuffer();
            }
        }
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
    public int rowOf(String id) {
        return rowIndex.rowOf(id);
    }

    @Override
    public void readBlock(int start, int count, float[] into, int offset) {
        if (start < 0 || count < 0 || start > size() - count) {
            throw new IndexOutOfBoundsException(
                    "rows [" + start + ", " + ((long) start + count) + ") outside [0, " + size() + ")");
        }
        int row = start;
        int end = start + count;
        while (row < end) {
            int chunk = row / rowsPerChunk;
            int inChunk = row - chunk * rowsPerChunk;
            int n = Math.min(end - row, rowsPerChunk - inChunk);
            chunks[chunk].get(inChunk * dim, into, offset + (row - start) * dim, n * dim);
            row += n;
        }
    }
}
