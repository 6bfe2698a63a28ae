package dev.compress.codec.binary;

import java.io.IOException;

/**
 * Reusable buffers for one batch of records read with {@link BinarizedVectorValues#readRecords}:
 * the batch's codes as words ({@link #stride} longs per record, record {@code i} at {@code i *
 * stride}) and their corrections ({@link SignBinarizer#CORRECTIONS} floats per record).
 */
final class RecordBatch {

    final int stride;
    long[] words = new long[0];
    float[] corrections = new float[0];

    RecordBatch(int dims) {
        this.stride = CodeWords.words(dims);
    }

    /** Reads the records of {@code ords[0..count)}, growing the buffers when needed. */
    void read(BinarizedVectorValues codes, int[] ords, int count) throws IOException {
        if (words.length < count * stride) {
            words = new long[count * stride];
            corrections = new float[count * SignBinarizer.CORRECTIONS];
        }
        codes.readRecords(ords, count, words, corrections);
    }
}
