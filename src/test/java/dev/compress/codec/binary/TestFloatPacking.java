package dev.compress.codec.binary;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.lucene.tests.util.LuceneTestCase;

/**
 * Packing is lossless bit for bit, whatever the values: components inside their window come back
 * from the planes (through the Vector API and one at a time alike), every other one (zeros, signed zeros, subnormals, extremes, infinities, NaN) is
 * reported as an exception exactly when it lies outside, and the windows sit where most values
 * are.
 */
public class TestFloatPacking extends LuceneTestCase {

    public void testTheVectorApiDecodesHere() {
        // the test JVM runs with the module, as a node does: the decoding tested below is the served one
        assertTrue(VectorFloatUnpacking.AVAILABLE);
    }

    private static float randomValue(Random random) {
        return switch (random.nextInt(20)) {
            case 0 -> 0f;
            case 1 -> -0f;
            case 2 -> Float.MIN_VALUE * (1 + random.nextInt(1000));
            case 3 -> (random.nextBoolean() ? 1 : -1) * Float.MAX_VALUE / (1 + random.nextInt(10));
            case 4 -> Float.intBitsToFloat(random.nextInt());
            case 5 -> random.nextBoolean() ? Float.POSITIVE_INFINITY : Float.NaN;
            default -> (float) (0.05 * random.nextGaussian());
        };
    }

    private record Exception(int component, int bits) {}

    public void testEveryValueRoundTripsBitForBit() {
        Random random = random();
        for (int round = 0; round < 200; round++) {
            int dims = 1 + random.nextInt(round < 20 ? 5 : 800);
            float[][] vectors = new float[1 + random.nextInt(20)][dims];
            ExponentWindows windows = new ExponentWindows(dims);
            for (float[] v : vectors) {
                for (int i = 0; i < dims; i++) {
                    v[i] = randomValue(random);
                }
                windows.add(v);
            }
            byte[] tops = windows.tops();
            int[] floors = new int[dims];
            for (int i = 0; i < dims; i++) {
                floors[i] = tops[i] - FloatPacking.WINDOW;
            }
            byte[] record = new byte[FloatPacking.recordBytes(dims)];
            long exceptionCount = 0;
            for (float[] v : vectors) {
                List<Exception> exceptions = new ArrayList<>();
                FloatPacking.encode(v, tops, record, (c, bits) -> exceptions.add(new Exception(c, bits)));
                exceptionCount += exceptions.size();
                float[] decoded = new float[dims];
                FloatPacking.decode(record, floors, decoded);
                float[] oneByOne = new float[dims];
                FloatPacking.decode(record, floors, oneByOne, 0, dims);
                int next = 0;
                for (int i = 0; i < dims; i++) {
                    int e7 = FloatPacking.e7(v[i]);
                    boolean outside = e7 > tops[i] || e7 <= tops[i] - FloatPacking.WINDOW;
                    if (outside) {
                        Exception e = exceptions.get(next++);
                        assertEquals(i, e.component());
                        assertEquals(Float.floatToRawIntBits(v[i]), e.bits());
                    } else {
                        assertEquals(
                                "component " + i + " of " + dims,
                                Float.floatToRawIntBits(v[i]),
                                Float.floatToRawIntBits(decoded[i]));
                        assertEquals(
                                "component " + i + " of " + dims + ", one at a time",
                                Float.floatToRawIntBits(v[i]),
                                Float.floatToRawIntBits(oneByOne[i]));
                    }
                }
                assertEquals("every exception is outside its window", next, exceptions.size());
            }
            assertEquals(exceptionCount, windows.exceptions(tops));
        }
    }

    /**
     * The first pass of a two-pass rescoring reads each component's top 16 bits: every component
     * inside its window comes back within {@link FloatPacking#COARSE_ERROR} of itself, relative to
     * the coarse value (plus {@link FloatPacking#COARSE_ABSOLUTE_ERROR} for zeros and subnormals a
     * window holds), and an exception as 0; the Vector API and one at a time give the same sums.
     */
    public void testCoarseValuesStayWithinTheirBound() {
        Random random = random();
        for (int round = 0; round < 100; round++) {
            int dims = 1 + random.nextInt(round < 20 ? 5 : 800);
            float[] v = new float[dims];
            float[] query = new float[dims];
            ExponentWindows windows = new ExponentWindows(dims);
            for (int i = 0; i < dims; i++) {
                v[i] = random.nextInt(10) == 0 ? randomValue(random) : (float) (0.05 * random.nextGaussian());
                if (Float.isFinite(v[i]) == false) {
                    v[i] = 1f;
                }
                query[i] = (float) random.nextGaussian();
            }
            windows.add(v);
            byte[] tops = windows.tops();
            int[] floors = new int[dims];
            for (int i = 0; i < dims; i++) {
                floors[i] = tops[i] - FloatPacking.WINDOW;
            }
            byte[] record = new byte[FloatPacking.recordBytes(dims)];
            FloatPacking.encode(v, tops, record, (c, bits) -> {});
            byte[] coarse = java.util.Arrays.copyOfRange(record, 2 * dims, record.length);
            int half = FloatPacking.half(dims);
            double dot = 0;
            double norm = 0;
            for (int i = 0; i < dims; i++) {
                int nibble = i < half ? coarse[dims + i] : coarse[dims + i - half] >> 4;
                float value = FloatPacking.coarse(coarse[i], nibble, floors[i]);
                int e7 = FloatPacking.e7(v[i]);
                if (e7 > tops[i] || e7 <= tops[i] - FloatPacking.WINDOW) {
                    assertEquals("exception " + i, 0f, value, 0f);
                } else {
                    assertTrue(
                            "component " + i + ": " + v[i] + " against coarse " + value,
                            Math.abs((double) v[i] - value)
                                    <= FloatPacking.COARSE_ERROR * Math.abs(value)
                                            + FloatPacking.COARSE_ABSOLUTE_ERROR);
                }
                dot += (double) query[i] * value;
                norm += (double) value * value;
            }
            float[] sums = new float[3];
            FloatPacking.coarseSums(coarse, floors, query, sums);
            float[] oneByOne = new float[3];
            FloatPacking.coarseSums(coarse, floors, query, oneByOne, 0, dims);
            if (norm > 1e36) {
                continue; // float sums near or beyond float's range: nothing to compare
            }
            double scale = norm + 1e-30;
            assertEquals(dot, sums[0], 1e-4 * Math.sqrt(scale) * dims);
            assertEquals(dot, oneByOne[0], 1e-4 * Math.sqrt(scale) * dims);
            assertEquals(norm, sums[2], 1e-5 * scale);
            assertEquals(norm, oneByOne[2], 1e-5 * scale);
            assertEquals(oneByOne[1], sums[1], 1e-5 * Math.abs(oneByOne[1]) + 1e-30);
        }
    }

    public void testWindowHoldsTheCommonExponents() {
        int dims = 3;
        ExponentWindows windows = new ExponentWindows(dims);
        Random random = random();
        for (int n = 0; n < 1000; n++) {
            // dimension 0: 2^-12 to 2^-2 (e7 57 to 62); 1: 1e6 to 2e6 (e7 73); 2: mostly 0, some 1
            float tiny = n % 10 == 0 ? 1f : 0f;
            windows.add(new float[] {
                (float) Math.scalb(1 + random.nextFloat(), -3 - random.nextInt(10)),
                1e6f * (1 + random.nextFloat()),
                tiny
            });
        }
        byte[] tops = windows.tops();
        assertEquals(62, tops[0]);
        assertEquals("the first window holding e7 73", 73, tops[1]);
        assertEquals("zeros (e7 0) are most of dimension 2", FloatPacking.WINDOW - 1, tops[2]);
        assertEquals("the ones of dimension 2 lie outside", 100, windows.exceptions(tops));
    }

    public void testRecordIsThreeAndAHalfBytesPerComponent() {
        assertEquals(3 * 384 + 192, FloatPacking.recordBytes(384));
        assertEquals(3 * 7 + 4, FloatPacking.recordBytes(7));
    }
}
