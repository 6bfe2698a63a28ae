package dev.compress.codec.binary;

import java.io.IOException;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.util.packed.DirectMonotonicReader;

/**
 * Where one field's float32 vectors are in the floats file, as {@link PackedFloatsWriter} wrote
 * them.
 *
 * @param offset start of the field's records in the floats file
 * @param length bytes of the records (and their exceptions)
 * @param tops each dimension's window top ({@link FloatPacking}); null when the records are plain
 *     float32
 * @param offsetsMeta the direct-monotonic table of record offsets (packed records only)
 * @param offsetsStart where that table starts in the floats file
 * @param offsetsLength its length in bytes
 */
record PackedFloatsEntry(
        long offset,
        long length,
        byte[] tops,
        DirectMonotonicReader.Meta offsetsMeta,
        long offsetsStart,
        long offsetsLength) {

    boolean packed() {
        return tops != null;
    }

    /** Reads the entry of a field of {@code size} vectors of {@code dims}, checking its lengths. */
    static PackedFloatsEntry read(IndexInput meta, int dims, int size) throws IOException {
        long offset = meta.readVLong();
        long length = meta.readVLong();
        byte packed = meta.readByte();
        if (packed == 0) {
            if (length != (long) size * dims * Float.BYTES) {
                throw new CorruptIndexException(length + " bytes of float32 vectors for " + size, meta);
            }
            return new PackedFloatsEntry(offset, length, null, null, 0, 0);
        }
        if (packed != 1 || length < (long) size * FloatPacking.recordBytes(dims)) {
            throw new CorruptIndexException(
                    "packed floats: flag " + packed + ", " + length + " bytes for " + size + " vectors", meta);
        }
        byte[] tops = new byte[dims];
        meta.readBytes(tops, 0, dims);
        for (byte top : tops) {
            if (top < FloatPacking.WINDOW - 1) {
                throw new CorruptIndexException("packed floats: window top " + top, meta);
            }
        }
        long offsetsStart = meta.readVLong();
        int blockShift = meta.readVInt();
        DirectMonotonicReader.Meta offsetsMeta = DirectMonotonicReader.loadMeta(meta, size + 1L, blockShift);
        long offsetsLength = meta.readVLong();
        return new PackedFloatsEntry(offset, length, tops, offsetsMeta, offsetsStart, offsetsLength);
    }
}
