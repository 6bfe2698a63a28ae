package dev.compress.codec.binary;

import java.util.Arrays;
import java.util.Random;
import org.apache.lucene.tests.util.LuceneTestCase;

/**
 * Corrections moved to a new centre: the stored norm stays, an unmoved centre changes nothing, the
 * moved values estimate as well as those computed from the float vector around the new centre
 * for the same code, a vector that is its centre is binarised again, and the scale factor stays
 * bounded whatever the code.
 */
public class TestCentreShift extends LuceneTestCase {

    public void testAnUnmovedCentreKeepsTheCorrections() {
        Random random = random();
        int dims = 1 + random.nextInt(500);
        float[] centre = gaussian(random, dims, 0.3);
        for (int n = 0; n < 50; n++) {
            float[] x = gaussian(random, dims, 1 + random.nextDouble());
            byte[] code = new byte[SignBinarizer.codeBytes(dims)];
            float[] corrections = new float[SignBinarizer.CORRECTIONS];
            SignBinarizer.binarize(x, centre, code);
            SignBinarizer.corrections(x, centre, corrections);
            float[] moved = corrections.clone();
            new CentreShift(centre, centre.clone()).apply(code, moved);
            for (int c = 0; c < SignBinarizer.CORRECTIONS; c++) {
                assertEquals("correction " + c, corrections[c], moved[c], 1e-5 * Math.max(1, Math.abs(corrections[c])));
            }
        }
    }

    /**
     * For the same code, the inner-product estimate with the moved corrections is as good as with the
     * exact ones; the moved scale factor is much closer to the exact one than the unmoved; and the
     * estimated term {@code a <s, d>} is closer to {@code <d, x - c>} than leaving it out.
     */
    public void testMovedCorrectionsEstimateAsWellAsExactOnes() {
        Random random = random();
        int dims = 64 + random.nextInt(700);
        float[] from = gaussian(random, dims, 0.3);
        float[] to = from.clone();
        for (int i = 0; i < dims; i++) {
            to[i] += (float) (0.3 * random.nextGaussian());
        }
        double movedError = 0, exactError = 0, unmovedError = 0, centreDotError = 0, estimatedTerm = 0;
        double movedFactorError = 0, unmovedFactorError = 0;
        for (int n = 0; n < 300; n++) {
            double sigma = 0.5 + random.nextDouble();
            float[] x = gaussian(random, dims, sigma); // around the old centre, which is its segment's mean
            for (int i = 0; i < dims; i++) {
                x[i] += from[i];
            }
            float[] q = gaussian(random, dims, sigma);
            byte[] code = new byte[SignBinarizer.codeBytes(dims)];
            float[] stored = new float[SignBinarizer.CORRECTIONS];
            SignBinarizer.binarize(x, from, code);
            SignBinarizer.corrections(x, from, stored);
            float[] moved = stored.clone();
            new CentreShift(from, to).apply(code, moved);
            assertEquals("|x|^2 is stored, not estimated", stored[2], moved[2], 0f);

            // the same code's exact corrections around the new centre
            double toDot = 0, residual = 0, signDot = 0, trueDot = 0, shiftDotResidual = 0;
            for (int i = 0; i < dims; i++) {
                double r = x[i] - to[i];
                toDot += (double) to[i] * x[i];
                residual += r * r;
                signDot += SignBinarizer.bit(code, i) ? r : -r;
                trueDot += (double) q[i] * x[i];
                shiftDotResidual += ((double) to[i] - from[i]) * (x[i] - from[i]);
            }
            exactError += Math.abs(estimate(q, code, to, residual / signDot, toDot) - trueDot);
            movedError += Math.abs(estimate(q, code, to, moved[0], moved[1]) - trueDot);
            unmovedError += Math.abs(estimate(q, code, to, stored[0], stored[1]) - trueDot);
            centreDotError += Math.abs(moved[1] - toDot);
            estimatedTerm += Math.abs(shiftDotResidual);
            double exactFactor = residual / signDot;
            movedFactorError += Math.abs(moved[0] - exactFactor) / exactFactor;
            unmovedFactorError += Math.abs(stored[0] - exactFactor) / exactFactor;
        }
        String errors = "moved " + movedError + ", exact " + exactError + ", unmoved " + unmovedError;
        assertTrue(errors, movedError < 1.05 * exactError);
        assertTrue(
                "scale factor off by " + movedFactorError / 300 + " moved, " + unmovedFactorError / 300 + " unmoved",
                movedFactorError < 0.7 * unmovedFactorError);
        assertTrue(
                "<c', x> off by " + centreDotError + " against " + estimatedTerm + " for <d, x - c>",
                centreDotError < 0.95 * estimatedTerm);
    }

    /** A segment of one vector has it as its centre: the factor is 0, and the vector is known. */
    public void testAVectorAtItsCentreIsBinarisedAgain() {
        Random random = random();
        int dims = 1 + random.nextInt(500);
        float[] from = gaussian(random, dims, 1);
        float[] to = gaussian(random, dims, 1);
        byte[] code = new byte[SignBinarizer.codeBytes(dims)];
        float[] corrections = new float[SignBinarizer.CORRECTIONS];
        SignBinarizer.binarize(from, from, code);
        SignBinarizer.corrections(from, from, corrections);
        assertEquals(0f, corrections[0], 0f);
        new CentreShift(from, to).apply(code, corrections);
        byte[] expectedCode = new byte[code.length];
        float[] expected = new float[SignBinarizer.CORRECTIONS];
        SignBinarizer.binarize(from, to, expectedCode);
        SignBinarizer.corrections(from, to, expected);
        assertArrayEquals(expectedCode, code);
        assertArrayEquals(expected, corrections, 0f);
    }

    /**
     * Whatever the code and however far the centre moves, the moved factor is finite and at most
     * {@code |x - c'|}.
     */
    public void testTheScaleFactorIsBoundedByTheResidual() {
        Random random = random();
        int dims = 1 + random.nextInt(500);
        float[] from = gaussian(random, dims, 0.3);
        float[] to = gaussian(random, dims, 3);
        for (int n = 0; n < 100; n++) {
            float[] x = gaussian(random, dims, 1);
            byte[] code = new byte[SignBinarizer.codeBytes(dims)];
            float[] corrections = new float[SignBinarizer.CORRECTIONS];
            SignBinarizer.corrections(x, from, corrections);
            if (n % 2 == 0) {
                random.nextBytes(code); // a code unrelated to x
            } else {
                SignBinarizer.binarize(to, from, code); // signs of the shift: <s, x - c'> goes negative
            }
            new CentreShift(from, to).apply(code, corrections);
            double centreNorm = 0;
            for (float c : to) {
                centreNorm += (double) c * c;
            }
            double residual = corrections[2] - 2.0 * corrections[1] + centreNorm;
            // |x - c'|^2 from float corrections cancels when x lies near c': allow their rounding
            double rounding = 1e-6 * (Math.abs(corrections[2]) + 2 * Math.abs(corrections[1]) + centreNorm);
            assertTrue(Arrays.toString(corrections), Float.isFinite(corrections[0]) && corrections[0] >= 0);
            double bound = Math.sqrt(Math.max(0, residual + rounding)) * (1 + 1e-5) + 1e-6;
            assertTrue(corrections[0] + " > " + Math.sqrt(residual), corrections[0] <= bound);
        }
    }

    /** {@code <q, x> ~ a <s, q - c> + <c, x> + <q, c> - <c, c>}. */
    private static double estimate(float[] q, byte[] code, float[] centre, double scaleFactor, double centreDot) {
        double signDot = 0, queryDot = 0, centreNorm = 0;
        for (int i = 0; i < q.length; i++) {
            double r = q[i] - centre[i];
            signDot += SignBinarizer.bit(code, i) ? r : -r;
            queryDot += (double) q[i] * centre[i];
            centreNorm += (double) centre[i] * centre[i];
        }
        return scaleFactor * signDot + centreDot + queryDot - centreNorm;
    }

    private static float[] gaussian(Random random, int dims, double sigma) {
        float[] v = new float[dims];
        for (int i = 0; i < dims; i++) {
            v[i] = (float) (sigma * random.nextGaussian());
        }
        return v;
    }
}
