package dev.compress.training.trainer;

/**
 * Eigen-decomposition of a symmetric matrix by cyclic Jacobi rotations, in double precision. Plain
 * Java so PCA needs no native engine; O(n^3) per sweep, a second or so for n = 384. Eigenvalues come
 * back in descending order with eigenvectors as rows.
 */
final class SymmetricEigen {

    final double[] values;
    final double[][] vectors;

    private SymmetricEigen(double[] values, double[][] vectors) {
        this.values = values;
        this.vectors = vectors;
    }

    static SymmetricEigen of(double[][] matrix) {
        int n = matrix.length;
        double[][] a = new double[n][];
        for (int i = 0; i < n; i++) {
            a[i] = matrix[i].clone();
        }
        double[][] v = new double[n][n];
        for (int i = 0; i < n; i++) {
            v[i][i] = 1;
        }
        for (int sweep = 0; sweep < 100; sweep++) {
            double off = 0;
            double diag = 0;
            for (int i = 0; i < n; i++) {
                diag += a[i][i] * a[i][i];
                for (int j = i + 1; j < n; j++) {
                    off += a[i][j] * a[i][j];
                }
            }
            if (off <= 1e-26 * Math.max(diag, 1e-300)) {
                break;
            }
            for (int p = 0; p < n; p++) {
                for (int q = p + 1; q < n; q++) {
                    if (Math.abs(a[p][q]) < 1e-300) {
                        continue;
                    }
                    double theta = (a[q][q] - a[p][p]) / (2 * a[p][q]);
                    double t = Math.signum(theta) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
                    if (theta == 0) {
                        t = 1;
                    }
                    double c = 1 / Math.sqrt(t * t + 1);
                    double s = t * c;
                    for (int k = 0; k < n; k++) {
                        double akp = a[k][p];
                        double akq = a[k][q];
                        a[k][p] = c * akp - s * akq;
                        a[k][q] = s * akp + c * akq;
                    }
                    for (int k = 0; k < n; k++) {
                        double apk = a[p][k];
                        double aqk = a[q][k];
                        a[p][k] = c * apk - s * aqk;
                        a[q][k] = s * apk + c * aqk;
                    }
                    for (int k = 0; k < n; k++) {
                        double vpk = v[p][k];
                        double vqk = v[q][k];
                        v[p][k] = c * vpk - s * vqk;
                        v[q][k] = s * vpk + c * vqk;
                    }
                }
            }
        }
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        final double[][] fa = a;
        java.util.Arrays.sort(order, (x, y) -> Double.compare(fa[y][y], fa[x][x]));
        double[] values = new double[n];
        double[][] vectors = new double[n][];
        for (int i = 0; i < n; i++) {
            values[i] = a[order[i]][order[i]];
            vectors[i] = v[order[i]];
        }
        return new SymmetricEigen(values, vectors);
    }
}
