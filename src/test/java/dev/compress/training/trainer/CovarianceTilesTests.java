package dev.compress.training.trainer;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.Random;
import org.junit.Test;

/**
 * The covariance sum is the same bits whichever way its tiles are added: one row and one entry at a
 * time, a tile at a time, or through the Vector API's register blocks, for every shape of tile,
 * block and remainder.
 */
public class CovarianceTilesTests {

    @Test
    public void theVectorApiAddsHere() {
        // the test JVM has the module, as a node does: the kernel under test below is the vector one
        assertTrue(VectorCovarianceTiles.AVAILABLE);
    }

    @Test
    public void everyWayGivesTheBitsOfOneProductAtATime() {
        Random random = new Random(17);
        for (int d : new int[] {1, 3, 4, 7, 8, 16, 17, 37, 128, 129, 203, 300}) {
            for (int rows : new int[] {1, 5, 64}) {
                double[][] start = randomMatrix(random, d, d);
                double[][] byProduct = copy(start);
                double[][] byTile = copy(start);
                double[][] byVector = copy(start);
                for (int chunkNumber = 0; chunkNumber < 3; chunkNumber++) {
                    double[][] chunk = randomMatrix(random, 64, d);
                    addOneProductAtATime(chunk, rows, byProduct);
                    CovarianceTiles.addScalar(chunk, rows, byTile);
                    VectorCovarianceTiles.add(chunk, rows, byVector);
                }
                assertUpperTriangleBits(byProduct, byTile, "tiles, d " + d + ", rows " + rows);
                assertUpperTriangleBits(byProduct, byVector, "vector blocks, d " + d + ", rows " + rows);
            }
        }
    }

    @Test
    public void addLeavesTheUpperTriangleAsTheScalarSumDoes() {
        Random random = new Random(19);
        double[][] chunk = randomMatrix(random, 64, 260);
        double[][] expected = new double[260][260];
        double[][] actual = new double[260][260];
        addOneProductAtATime(chunk, 64, expected);
        CovarianceTiles.add(chunk, 64, actual);
        assertUpperTriangleBits(expected, actual, "add");
    }

    private static void addOneProductAtATime(double[][] chunk, int rows, double[][] cov) {
        for (int r = 0; r < rows; r++) {
            for (int a = 0; a < cov.length; a++) {
                for (int b = a; b < cov.length; b++) {
                    cov[a][b] += chunk[r][a] * chunk[r][b];
                }
            }
        }
    }

    private static void assertUpperTriangleBits(double[][] expected, double[][] actual, String what) {
        for (int a = 0; a < expected.length; a++) {
            for (int b = a; b < expected.length; b++) {
                assertEquals(
                        what + ": entry (" + a + ", " + b + ")",
                        Double.doubleToRawLongBits(expected[a][b]),
                        Double.doubleToRawLongBits(actual[a][b]));
            }
        }
    }

    private static double[][] randomMatrix(Random random, int rows, int cols) {
        double[][] m = new double[rows][cols];
        for (double[] row : m) {
            for (int j = 0; j < cols; j++) {
                row[j] = random.nextGaussian();
            }
        }
        return m;
    }

    private static double[][] copy(double[][] m) {
        double[][] c = new double[m.length][];
        for (int i = 0; i < m.length; i++) {
            c[i] = m[i].clone();
        }
        return c;
    }
}
