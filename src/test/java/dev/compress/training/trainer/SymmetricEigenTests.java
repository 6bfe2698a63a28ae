package dev.compress.training.trainer;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.util.List;
import java.util.Random;
import org.junit.Test;

public class SymmetricEigenTests {

    @Test
    public void decomposesRandomSymmetricMatrices() {
        Random random = new Random(3);
        for (int n : new int[] {1, 2, 3, 4, 5, 8, 17, 40, 97}) {
            assertDecomposes(randomSymmetric(random, n));
        }
    }

    @Test
    public void decomposesCovariancesWithRepeatedAndZeroEigenvalues() {
        Random random = new Random(5);
        int n = 30;
        // rank 12 with three distinct nonzero variances, each four times: repeated and zero eigenvalues
        double[][] x = new double[200][n];
        double[][] basis = orthonormal(random, 12, n);
        for (double[] row : x) {
            for (int c = 0; c < 12; c++) {
                double weight = random.nextGaussian() * (c < 4 ? 3 : c < 8 ? 2 : 1);
                for (int j = 0; j < n; j++) {
                    row[j] += weight * basis[c][j];
                }
            }
        }
        double[][] covariance = new double[n][n];
        for (double[] row : x) {
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    covariance[i][j] += row[i] * row[j];
                }
            }
        }
        SymmetricEigen e = assertDecomposes(covariance);
        for (int i = 12; i < n; i++) {
            assertEquals("eigenvalue " + i, 0, e.values[i], 1e-9 * e.values[0]);
        }
        assertTrue(e.values[11] > 1e-3 * e.values[0]);
    }

    @Test
    public void decomposesDiagonalIdentityAndZeroMatrices() {
        SymmetricEigen diagonal = assertDecomposes(new double[][] {{1, 0, 0}, {0, 3, 0}, {0, 0, 2}});
        assertEquals(3, diagonal.values[0], 0);
        assertEquals(2, diagonal.values[1], 0);
        assertEquals(1, diagonal.values[2], 0);
        assertEquals(1, Math.abs(diagonal.vectors[0][1]), 0);
        assertDecomposes(new double[][] {{1, 0}, {0, 1}});
        SymmetricEigen zero = assertDecomposes(new double[4][4]);
        assertEquals(0, zero.values[0], 0);
        assertEquals(0, SymmetricEigen.of(new double[0][0]).values.length);
        assertEquals(0, SymmetricEigen.householderQl(new double[0][0]).values.length);
    }

    @Test
    public void bothAlgorithmsFindTheSameDecomposition() {
        Random random = new Random(11);
        int n = 60;
        double[][] a = randomSymmetric(random, n);
        SymmetricEigen jacobi = SymmetricEigen.jacobi(copy(a));
        SymmetricEigen householder = SymmetricEigen.householderQl(copy(a));
        for (int i = 0; i < n; i++) {
            assertEquals(jacobi.values[i], householder.values[i], 1e-10);
            double dot = 0;
            for (int k = 0; k < n; k++) {
                dot += jacobi.vectors[i][k] * householder.vectors[i][k];
            }
            assertEquals("vector " + i + " the same up to its sign", 1, Math.abs(dot), 1e-9);
        }
    }

    @Test
    public void rotationsAppliedInBatchesGiveTheBitsOfOneAtATime() {
        // 600 rows: three blocks of columns and a partial one; a batch of 1,000 fills many times per run
        double[][] a = randomSymmetric(new Random(17), 600);
        SymmetricEigen oneAtATime = SymmetricEigen.householderQl(copy(a), 1);
        for (SymmetricEigen batched :
                List.of(SymmetricEigen.householderQl(copy(a), 1000), SymmetricEigen.householderQl(copy(a)))) {
            assertArrayEquals(oneAtATime.values, batched.values, 0);
            for (int i = 0; i < a.length; i++) {
                assertArrayEquals(oneAtATime.vectors[i], batched.vectors[i], 0);
            }
        }
    }

    @Test
    public void ofTakesJacobiUpToItsLimit() {
        double[][] a = randomSymmetric(new Random(13), 8);
        SymmetricEigen jacobi = SymmetricEigen.jacobi(copy(a));
        SymmetricEigen e = SymmetricEigen.of(a);
        for (int i = 0; i < a.length; i++) {
            assertEquals(jacobi.values[i], e.values[i], 0);
            assertArrayEquals(jacobi.vectors[i], e.vectors[i], 0);
        }
    }

    @Test
    public void refusesANonSquareMatrix() {
        assertThrows(IllegalArgumentException.class, () -> SymmetricEigen.of(new double[][] {{1, 2}, {3}}));
    }

    /** Both algorithms: descending values, orthonormal rows, A v = lambda v; returns Householder's. */
    private static SymmetricEigen assertDecomposes(double[][] a) {
        assertDecomposes(a, SymmetricEigen.jacobi(copy(a)));
        return assertDecomposes(a, SymmetricEigen.householderQl(copy(a)));
    }

    private static SymmetricEigen assertDecomposes(double[][] a, SymmetricEigen e) {
        int n = a.length;
        double norm = 0;
        for (double[] row : a) {
            for (double x : row) {
                norm = Math.max(norm, Math.abs(x));
            }
        }
        double tolerance = 1e-12 * n * Math.max(norm, 1);
        for (int i = 0; i < n; i++) {
            if (i > 0) {
                assertTrue("values descend", e.values[i] <= e.values[i - 1]);
            }
            double[] v = e.vectors[i];
            for (int j = 0; j < n; j++) {
                double dot = 0;
                for (int k = 0; k < n; k++) {
                    dot += v[k] * e.vectors[j][k];
                }
                assertEquals("rows " + i + ", " + j + " orthonormal", i == j ? 1 : 0, dot, 1e-12 * n);
            }
            for (int r = 0; r < n; r++) {
                double av = 0;
                for (int k = 0; k < n; k++) {
                    av += a[r][k] * v[k];
                }
                assertEquals("(A v - lambda v)[" + r + "] of vector " + i, e.values[i] * v[r], av, tolerance);
            }
        }
        return e;
    }

    private static double[][] randomSymmetric(Random random, int n) {
        double[][] a = new double[n][n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j <= i; j++) {
                a[i][j] = random.nextGaussian();
                a[j][i] = a[i][j];
            }
        }
        return a;
    }

    private static double[][] copy(double[][] a) {
        double[][] out = new double[a.length][];
        for (int i = 0; i < a.length; i++) {
            out[i] = a[i].clone();
        }
        return out;
    }

    private static double[][] orthonormal(Random random, int count, int n) {
        double[][] basis = new double[count][n];
        for (int c = 0; c < count; c++) {
            for (int j = 0; j < n; j++) {
                basis[c][j] = random.nextGaussian();
            }
            for (int p = 0; p < c; p++) {
                double dot = 0;
                for (int j = 0; j < n; j++) {
                    dot += basis[c][j] * basis[p][j];
                }
                for (int j = 0; j < n; j++) {
                    basis[c][j] -= dot * basis[p][j];
                }
            }
            double length = 0;
            for (int j = 0; j < n; j++) {
                length += basis[c][j] * basis[c][j];
            }
            for (int j = 0; j < n; j++) {
                basis[c][j] /= Math.sqrt(length);
            }
        }
        return basis;
    }
}
