package dev.compress.training.eval;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.Random;
import java.util.stream.IntStream;
import org.junit.Test;

public class DotProductTests {

    @Test
    public void theTestJvmTakesTheVectorApi() {
        // surefire's JVM adds the module, as OpenSearch's does: the lanes are what
        // fourAtOnceAreTheOneAtATimeSumsBitForBit checks
        assertTrue(DotProduct.VECTORISED);
    }

    @Test
    public void fourAtOnceAreTheOneAtATimeSumsBitForBit() {
        Random random = new Random(7);
        // every tail length, and the dimensions of the embeddings this project evaluates
        for (int dim : IntStream.concat(IntStream.rangeClosed(0, 70), IntStream.of(384, 1024))
                .toArray()) {
            int qOff = random.nextInt(5);
            float[] q = gaussian(random, qOff + dim + random.nextInt(3));
            int[] starts = new int[4];
            float[] rows = gaussian(random, 4 * (dim + 3) + 2);
            for (int r = 0; r < 4; r++) {
                starts[r] = r * (dim + 3) + random.nextInt(3);
            }
            float[] out = new float[6];
            DotProduct.ofFour(q, qOff, rows, starts[0], starts[1], starts[2], starts[3], dim, out, 1);
            for (int r = 0; r < 4; r++) {
                float one = DotProduct.of(q, qOff, rows, starts[r], dim);
                assertEquals(
                        "dim " + dim + ", row " + r, Float.floatToRawIntBits(one), Float.floatToRawIntBits(out[1 + r]));
                assertEquals("dim " + dim, exact(q, qOff, rows, starts[r], dim), one, 1e-4 * (dim + 1));
            }
            assertEquals(0f, out[0], 0f);
            assertEquals(0f, out[5], 0f);
        }
    }

    @Test
    public void onlyTheRowsAreRead() {
        float[] a = {100, 1, 2, 3, 100};
        float[] b = {100, 100, 4, 5, 6, 100};
        assertEquals(32f, DotProduct.of(a, 1, b, 2, 3), 0f);
    }

    private static float[] gaussian(Random random, int n) {
        float[] out = new float[n];
        for (int i = 0; i < n; i++) {
            out[i] = (float) random.nextGaussian();
        }
        return out;
    }

    private static double exact(float[] a, int aOff, float[] b, int bOff, int dim) {
        double sum = 0;
        for (int i = 0; i < dim; i++) {
            sum += (double) a[aOff + i] * b[bOff + i];
        }
        return sum;
    }
}
