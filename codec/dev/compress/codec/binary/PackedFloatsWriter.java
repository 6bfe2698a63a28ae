package dev.compress.codec.binary;

import java.io.IOException;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.util.packed.DirectMonotonicWriter;
import org.apache.lucene.util.packed.PackedInts;
import org.apache.lucene.util.packed.PackedLongValues;

/**
 * Writes one field's float32 vectors to the floats file, packed ({@link FloatPacking}) when that is
 * smaller than float32, as float32 otherwise, and then their metadata ({@link PackedFloatsEntry}).
 * Vectors arrive in ordinal order, after {@link ExponentWindows} has seen all of them.
 */
final class PackedFloatsWriter {

    /** Block shift of the record offsets' direct-monotonic table. */
    static final int OFFSETS_BLOCK_SHIFT = 16;

    private final IndexOutput floats;
    private final byte[] tops;
    private final long start;
    private final byte[] record;
    private final int[] exceptions;
    private final PackedLongValues.Builder offsets;
    private int exceptionCount;

    /**
     * Starts a field of {@code count} vectors whose exponents {@code windows} counted; records begin
     * at the current end of {@code floats}, aligned to a cache line.
     */
    PackedFloatsWriter(IndexOutput floats, int dims, int count, ExponentWindows windows) throws IOException {
        this.floats = floats;
        this.start = floats.alignFilePointer(SignBinarizer.CACHE_LINE);
        byte[] windowTops = windows.tops();
        long packedBytes = (long) count * FloatPacking.recordBytes(dims)
                + windows.exceptions(windowTops) * FloatPacking.EXCEPTION_BYTES;
        boolean packed = packedBytes < (long) count * dims * Float.BYTES;
        this.tops = packed ? windowTops : null;
        this.record = packed ? new byte[FloatPacking.recordBytes(dims)] : null;
        this.exceptions = packed ? new int[2 * dims] : null;
        this.offsets = packed ? PackedLongValues.monotonicBuilder(PackedInts.COMPACT) : null;
    }

    void add(float[] vector) throws IOException {
        if (tops == null) {
            for (float v : vector) {
                floats.writeInt(Float.floatToIntBits(v));
            }
            return;
        }
        offsets.add(floats.getFilePointer() - start);
        exceptionCount = 0;
        FloatPacking.encode(vector, tops, record, (component, bits) -> {
            exceptions[2 * exceptionCount] = component;
            exceptions[2 * exceptionCount + 1] = bits;
            exceptionCount++;
        });
        floats.writeBytes(record, record.length);
        for (int i = 0; i < 2 * exceptionCount; i++) {
            floats.writeInt(exceptions[i]);
        }
    }

    /**
     * Ends the field: writes the record offsets' table after the records (packed fields only) and
     * the field's floats metadata to {@code meta}, in {@link PackedFloatsEntry}'s layout.
     */
    void finish(IndexOutput meta) throws IOException {
        long length = floats.getFilePointer() - start;
        meta.writeVLong(start);
        meta.writeVLong(length);
        meta.writeByte((byte) (tops == null ? 0 : 1));
        if (tops == null) {
            return;
        }
        offsets.add(length);
        PackedLongValues values = offsets.build();
        meta.writeBytes(tops, tops.length);
        long tableStart = floats.getFilePointer();
        meta.writeVLong(tableStart);
        meta.writeVInt(OFFSETS_BLOCK_SHIFT);
        DirectMonotonicWriter table =
                DirectMonotonicWriter.getInstance(meta, floats, values.size(), OFFSETS_BLOCK_SHIFT);
        PackedLongValues.Iterator it = values.iterator();
        while (it.hasNext()) {
            table.add(it.next());
        }
        table.finish();
        meta.writeVLong(floats.getFilePointer() - tableStart);
    }
}
