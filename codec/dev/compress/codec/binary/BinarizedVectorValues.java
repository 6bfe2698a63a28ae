package dev.compress.codec.binary;

import java.io.IOException;
import org.apache.lucene.index.ByteVectorValues;
import org.apache.lucene.index.VectorSimilarityFunction;

/**
 * The sign codes of one float field in one segment. {@link #dimension()} is the float dimension;
 * {@link #vectorValue(int)} returns the packed code and {@link #corrections(int)} its corrections
 * (see {@link SignBinarizer}).
 */
public abstract class BinarizedVectorValues extends ByteVectorValues {

    private long[] words;

    /**
     * The code at {@code ord} packed into words ({@link CodeWords}), the form the scoring kernels
     * read; the array is reused and valid until the next call. This default packs {@link
     * #vectorValue}; stored codes are read as words directly.
     */
    public long[] codeWords(int ord) throws IOException {
        if (words == null) {
            words = new long[CodeWords.words(dimension())];
        }
        return CodeWords.pack(vectorValue(ord), words);
    }

    /**
     * The corrections of the vector at {@code ord} ({@link SignBinarizer#corrections}); the array is
     * reused and valid until the next call.
     */
    public abstract float[] corrections(int ord) throws IOException;

    /**
     * Reads the codes (packed into words) and corrections of {@code ords[0..count)} into {@code
     * words} ({@code count} rows of {@link CodeWords#words} longs) and {@code corrections} ({@code
     * count} rows of {@link SignBinarizer#CORRECTIONS} floats). This default reads one ordinal at a
     * time; stored codes override it to issue all the reads before any is used.
     */
    public void readRecords(int[] ords, int count, long[] words, float[] corrections) throws IOException {
        int stride = CodeWords.words(dimension());
        for (int i = 0; i < count; i++) {
            System.arraycopy(codeWords(ords[i]), 0, words, i * stride, stride);
            System.arraycopy(
                    corrections(ords[i]), 0, corrections, i * SignBinarizer.CORRECTIONS, SignBinarizer.CORRECTIONS);
        }
    }

    /** The centre codes were taken against (all zeros when centring is off). */
    public abstract float[] centroid();

    /** Per-dimension mean absolute deviation from {@link #centroid()}, used to decode. */
    public abstract float[] scale();

    /** The field's similarity, which decides how queries are prepared and decoded vectors scored. */
    public abstract VectorSimilarityFunction similarity();

    @Override
    public int getVectorByteLength() {
        return SignBinarizer.codeBytes(dimension());
    }

    @Override
    public abstract BinarizedVectorValues copy() throws IOException;
}
