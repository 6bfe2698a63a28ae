package dev.compress.training.mask;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;

import java.util.Random;
import org.junit.Test;

public class DimensionMasksTests {

    @Test
    public void topKKeepsExactlyKWithLowerIndexOnTies() {
        assertArrayEquals(new boolean[] {false, true, true, false}, DimensionMasks.topK(new float[] {1, 3, 2, 2}, 2));
        assertArrayEquals(new boolean[] {true, true, false}, DimensionMasks.topK(new float[] {1, 1, 1}, 2));
        Random rnd = new Random(5);
        for (int trial = 0; trial < 50; trial++) {
            float[] x = new float[384];
            for (int j = 0; j < x.length; j++) {
                x[j] = rnd.nextInt(5); // many ties
            }
            int k = 1 + rnd.nextInt(384);
            assertEquals(k, DimensionMasks.count(DimensionMasks.topK(x, k)));
        }
        assertThrows(IllegalArgumentException.class, () -> DimensionMasks.topK(new float[3], 0));
        assertThrows(IllegalArgumentException.class, () -> DimensionMasks.topK(new float[3], 4));
    }

    @Test
    public void baselineMasksByHand() {
        float[] q = {0.5f, -0.9f, 0.1f, 0.3f};
        assertArrayEquals(new boolean[] {true, true, false, false}, DimensionMasks.norm(q, 2));
        assertArrayEquals(new boolean[] {true, true, true, false}, DimensionMasks.cutoff(4, 3));
        float[][] fb = {{1, 1, 1, 1}, {0, -1, 3, 1}};
        // mean (0.5, 0, 2, 1) -> importance (0.25, 0, 0.2, 0.3)
        assertArrayEquals(new float[] {0.25f, 0f, 0.2f, 0.3f}, DimensionMasks.dimeImportance(q, fb), 1e-6f);
        assertArrayEquals(new boolean[] {true, false, false, true}, DimensionMasks.dimePrf(q, fb, 2));
        float[][] neg = {{0, 0, 4, 0}};
        // (mean pos - mean neg) = (0.5, 0, -2, 1) -> (0.25, 0, -0.2, 0.3)
        assertArrayEquals(new float[] {0.25f, -0f, -0.2f, 0.3f}, DimensionMasks.eclipseImportance(q, fb, neg), 1e-6f);
        assertArrayEquals(new boolean[] {true, true, false, true}, DimensionMasks.eclipsePrf(q, fb, neg, 3));
        assertArrayEquals(
                new float[] {0.5f, 0f, 0f, 0.3f},
                DimensionMasks.apply(q, new boolean[] {true, false, false, true}),
                0f);
        assertEquals(115, DimensionMasks.keep(384, 0.3));
        assertThrows(IllegalArgumentException.class, () -> DimensionMasks.keep(384, 0));
        assertThrows(IllegalArgumentException.class, () -> DimensionMasks.keep(384, 1.5));
    }
}
