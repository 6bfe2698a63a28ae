package dev.compress.codec.binary;

import java.io.IOException;
import java.util.Arrays;
import java.util.Random;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.tests.util.LuceneTestCase;

/** Stored codes read as words equal the packed bytes, whatever the dimension's remainder mod 64. */
public class TestOffHeapCodeWords extends LuceneTestCase {

    public void testWordsEqualPackedBytesInAnyReadOrder() throws IOException {
        Random random = random();
        for (int dims : new int[] {1, 7, 8, 63, 64, 65, 130, 384, 1 + random.nextInt(1000)}) {
            int size = 1 + random.nextInt(40);
            byte[][] codes = new byte[size][SignBinarizer.codeBytes(dims)];
            float[][] corrections = new float[size][SignBinarizer.CORRECTIONS];
            try (Directory dir = newDirectory()) {
                try (IndexOutput out = dir.createOutput("codes", IOContext.DEFAULT)) {
                    for (int ord = 0; ord < size; ord++) {
                        random.nextBytes(codes[ord]);
                        if ((dims & 7) != 0) {
                            codes[ord][codes[ord].length - 1] &= (byte) ((1 << (dims & 7)) - 1);
                        }
                        out.writeBytes(codes[ord], codes[ord].length);
                        for (int c = 0; c < SignBinarizer.CORRECTIONS; c++) {
                            corrections[ord][c] = random.nextFloat();
                            out.writeInt(Float.floatToIntBits(corrections[ord][c]));
                        }
                        byte[] padding = new byte
                                [SignBinarizer.recordBytes(dims)
                                        - codes[ord].length
                                        - SignBinarizer.CORRECTIONS * Float.BYTES];
                        random.nextBytes(padding); // whatever the padding holds, reads stay within code and corrections
                        out.writeBytes(padding, padding.length);
                    }
                }
                try (IndexInput in = dir.openInput("codes", IOContext.DEFAULT)) {
                    OffHeapBinarizedVectorValues values = new OffHeapBinarizedVectorValues.Dense(
                            dims, size, new float[dims], new float[dims], VectorSimilarityFunction.DOT_PRODUCT, in);
                    for (int i = 0; i < 3 * size; i++) {
                        int ord = random.nextInt(size);
                        long[] expected = CodeWords.pack(codes[ord], new long[CodeWords.words(dims)]);
                        switch (random.nextInt(3)) {
                            case 0 -> assertArrayEquals(expected, values.codeWords(ord));
                            case 1 -> assertArrayEquals(codes[ord], values.vectorValue(ord));
                            default -> {}
                        }
                        assertArrayEquals(corrections[ord], values.corrections(ord), 0f);
                        assertArrayEquals(expected, values.codeWords(ord));
                    }
                    assertBatchesEqualSingleReads(random, values, codes, corrections);
                }
            }
        }
    }

    /** Records hold code and corrections and, up to 64 bytes, never straddle two cache lines. */
    public void testRecordsFitCacheLines() {
        for (int dims = 1; dims <= 4096; dims++) {
            int needed = SignBinarizer.codeBytes(dims) + SignBinarizer.CORRECTIONS * Float.BYTES;
            int record = SignBinarizer.recordBytes(dims);
            assertTrue("dims " + dims, record >= needed);
            if (needed <= 64) {
                assertEquals("dims " + dims, 0, 64 % record);
                assertTrue("dims " + dims, record < 2 * needed);
            } else {
                assertTrue("dims " + dims, record == needed || (record % 64 == 0 && record - needed <= needed / 4));
            }
        }
        assertEquals(64, SignBinarizer.recordBytes(384));
    }

    /** A batch read gives each ordinal's words and corrections, repeats and any order included. */
    private static void assertBatchesEqualSingleReads(
            Random random, OffHeapBinarizedVectorValues values, byte[][] codes, float[][] corrections)
            throws IOException {
        int stride = CodeWords.words(values.dimension());
        int[] ords = new int[1 + random.nextInt(2 * codes.length)];
        for (int i = 0; i < ords.length; i++) {
            ords[i] = random.nextInt(codes.length);
        }
        long[] words = new long[(ords.length + 1) * stride];
        float[] read = new float[(ords.length + 1) * SignBinarizer.CORRECTIONS];
        values.copy().readRecords(ords, 0, new long[0], new float[0]); // an empty batch reads nothing
        values.copy().readRecords(ords, ords.length, words, read);
        for (int i = 0; i < ords.length; i++) {
            long[] expected = CodeWords.pack(codes[ords[i]], new long[stride]);
            assertArrayEquals(expected, Arrays.copyOfRange(words, i * stride, (i + 1) * stride));
            int c = i * SignBinarizer.CORRECTIONS;
            assertArrayEquals(corrections[ords[i]], Arrays.copyOfRange(read, c, c + SignBinarizer.CORRECTIONS), 0f);
        }
    }
}
