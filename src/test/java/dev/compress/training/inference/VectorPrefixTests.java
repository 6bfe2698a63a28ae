package dev.compress.training.inference;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class VectorPrefixTests {

    @Test
    public void keepsThePrefixAndRenormalisesItWhenAsked() {
        assertArrayEquals(new float[] {3, 4}, VectorPrefix.of(new float[] {3, 4, 12}, 2, false), 0);
        assertArrayEquals(new float[] {0.6f, 0.8f}, VectorPrefix.of(new float[] {3, 4, 12}, 2, true), 1e-7f);
    }

    @Test
    public void aZeroPrefixStaysZero() {
        assertArrayEquals(new float[] {0, 0}, VectorPrefix.of(new float[] {0, 0, 1}, 2, true), 0);
    }

    @Test
    public void theShortestVectorsStillComeOutOfUnitLength() {
        // lengths whose float inverse overflows: only a division keeps their direction
        for (float component : new float[] {1e-39f, 1e-42f, Float.MIN_VALUE}) {
            float[] unit = VectorPrefix.of(new float[] {component, component, 5}, 2, true);
            assertEquals(component + " -> " + unit[0], (float) Math.sqrt(0.5), unit[0], 1e-6f);
            assertEquals((float) Math.sqrt(0.5), unit[1], 1e-6f);
        }
    }
}
