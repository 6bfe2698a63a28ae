package dev.compress.demo.embed;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertThrows;

import org.junit.Test;

public class PoolingTests {

    private static final float[][] TOKENS = {{3, 0}, {0, 4}, {100, 100}};

    @Test
    public void clsTakesTheFirstTokenAndNormalises() {
        assertArrayEquals(new float[] {1, 0}, Pooling.CLS.embed(TOKENS, new long[] {1, 1, 0}), 1e-7f);
    }

    @Test
    public void meanAveragesOnlyUnmaskedTokens() {
        // mean of (3,0) and (0,4) = (1.5, 2), norm 2.5; the padded (100,100) is ignored
        assertArrayEquals(new float[] {0.6f, 0.8f}, Pooling.MEAN.embed(TOKENS, new long[] {1, 1, 0}), 1e-7f);
    }

    @Test
    public void maskMustCoverEveryTokenRow() {
        assertThrows(IllegalArgumentException.class, () -> Pooling.MEAN.embed(TOKENS, new long[] {1, 1}));
    }
}
