package dev.compress.training.sampling;

import static org.junit.Assert.assertEquals;

import java.util.Random;
import org.junit.Test;

public class UnsharedRandomTests {

    @Test
    public void drawsRandomsSequenceForEverySeed() {
        for (long seed : new long[] {0, 1, 31, 42, -7, Long.MAX_VALUE, 0x5DEECE66DL}) {
            Random reference = new Random(seed);
            Random unshared = new UnsharedRandom(seed);
            for (int i = 0; i < 1000; i++) {
                assertEquals(reference.nextInt(), unshared.nextInt());
                assertEquals(reference.nextInt(17), unshared.nextInt(17));
                assertEquals(
                        Float.floatToRawIntBits(reference.nextFloat()), Float.floatToRawIntBits(unshared.nextFloat()));
                assertEquals(reference.nextLong(), unshared.nextLong());
                assertEquals(
                        Double.doubleToRawLongBits(reference.nextGaussian()),
                        Double.doubleToRawLongBits(unshared.nextGaussian()));
                assertEquals(reference.nextBoolean(), unshared.nextBoolean());
                // a power-of-two bound takes its own branch
                assertEquals(reference.nextInt(16), unshared.nextInt(16));
                assertEquals(
                        Double.doubleToRawLongBits(reference.nextDouble()),
                        Double.doubleToRawLongBits(unshared.nextDouble()));
            }
            // an odd number of Gaussians leaves the second of a pair stored, which setSeed must drop
            assertEquals(
                    Double.doubleToRawLongBits(reference.nextGaussian()),
                    Double.doubleToRawLongBits(unshared.nextGaussian()));
            reference.setSeed(seed + 1);
            unshared.setSeed(seed + 1);
            for (int i = 0; i < 100; i++) {
                assertEquals(
                        Double.doubleToRawLongBits(reference.nextGaussian()),
                        Double.doubleToRawLongBits(unshared.nextGaussian()));
            }
        }
    }
}
