package dev.compress.training.trainer;

import dev.compress.training.data.Progress;
import java.util.Arrays;

/**
 * Eigen-decomposition of a symmetric matrix in double precision, in plain Java so that PCA needs no
 * native engine. Eigenvalues come back in descending order, with unit eigenvectors as rows (each
 * sign as its algorithm leaves it).
 *
 * <p>Up to {@link #JACOBI_MAX} dimensions, cyclic Jacobi rotations: 3 n^3 operations per sweep over
 * several sweeps. Every published fit of this project was made with them, and another algorithm's
 * rounding and signs send an adapter's training elsewhere from the same start, so they stay where
 * their cost is seconds. Beyond, their cost and their column-wise passes, which leave the CPU cache,
 * would hold a job's PCA start for many minutes: there, Householder reflections reduce the matrix to
 * tridiagonal form and the implicit QL method diagonalises that, both accumulated into the
 * eigenvectors, about 6 n^3 operations in all, along rows.
 */
final class SymmetricEigen {

    /** The largest dimension decomposed by {@link #jacobi}; larger ones go to {@link #householderQl}. */
    static final int JACOBI_MAX = 1024;

    /** QL iterations allowed per eigenvalue; it takes one to three on symmetric matrices. */
    private static final int MAX_ITERATIONS = 60;

    final double[] values;
    final double[][] vectors;

    private SymmetricEigen(double[] values, double[][] vectors) {
        this.values = values;
        this.vectors = vectors;
    }

    /**
     * Decomposes {@code matrix}, which it overwrites: at thousands of dimensions a copy is hundreds of
     * megabytes of heap.
     */
    static SymmetricEigen of(double[][] matrix) {
        return of(matrix, Progress.NONE);
    }

    /**
     * {@link #of(double[][])}, telling {@code steps} how far it is: Householder-QL's three passes count
     * about {@code n} steps each; Jacobi's few sweeps, done in seconds, report only the end.
     */
    static SymmetricEigen of(double[][] matrix, Progress steps) {
        int n = matrix.length;
        for (int i = 0; i < n; i++) {
            if (matrix[i].length != n) {
                throw new IllegalArgumentException(
                        "not a square matrix: row " + i + " has " + matrix[i].length + " entries, not " + n);
            }
        }
        if (n <= JACOBI_MAX) {
            SymmetricEigen e = jacobi(matrix);
            steps.done(1, 1);
            return e;
        }
        return householderQl(matrix, Rotations.BATCH, steps);
    }

    /**
     * Heap that {@link #of} takes for an {@code n x n} matrix besides the matrix itself: Jacobi's
     * eigenvector matrix up to {@link #JACOBI_MAX}, a few vectors beyond.
     */
    static long workingBytes(int n) {
        return n <= JACOBI_MAX ? (long) n * n * Double.BYTES : 8L * n * Double.BYTES;
    }

    /** Cyclic Jacobi rotations on {@code a}, which they overwrite. */
    static SymmetricEigen jacobi(double[][] a) {
        int n = a.length;
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
        Arrays.sort(order, (x, y) -> Double.compare(fa[y][y], fa[x][x]));
        double[] values = new double[n];
        double[][] vectors = new double[n][];
        for (int i = 0; i < n; i++) {
            values[i] = a[order[i]][order[i]];
            vectors[i] = v[order[i]];
        }
        return new SymmetricEigen(values, vectors);
    }

    /** Householder reduction and implicit QL on {@code a}, which they overwrite. */
    static SymmetricEigen householderQl(double[][] a) {
        return householderQl(a, Rotations.BATCH);
    }

    /** {@link #householderQl(double[][])} with the QL rotations applied {@code batch} at a time. */
    static SymmetricEigen householderQl(double[][] a, int batch) {
        return householderQl(a, batch, Progress.NONE);
    }

    static SymmetricEigen householderQl(double[][] a, int batch, Progress steps) {
        int n = a.length;
        double[] diagonal = new double[n];
        double[] offDiagonal = new double[n];
        tridiagonalise(a, diagonal, offDiagonal, steps);
        double[][] rows = transposeInPlace(a);
        diagonalise(diagonal, offDiagonal, rows, batch, steps);
        steps.done(3 * n, 3 * n);
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (x, y) -> Double.compare(diagonal[y], diagonal[x]));
        double[] values = new double[n];
        double[][] vectors = new double[n][];
        for (int i = 0; i < n; i++) {
            values[i] = diagonal[order[i]];
            vectors[i] = rows[order[i]];
        }
        return new SymmetricEigen(values, vectors);
    }

    /**
     * Householder reduction of the symmetric {@code a} to a tridiagonal
     * matrix with {@code d} on its diagonal and {@code e[i]} at {@code (i, i - 1)} ({@code e[0] = 0});
     * {@code a} is left holding the orthogonal Q with {@code A = Q T Q^T}. Step {@code i} reflects
     * row {@code i}'s entries left of the diagonal onto the one beside it, scaled first so that their
     * squares neither overflow nor underflow. Every pass runs along rows, which stay in cache where
     * the columns of a large matrix would not. The reduction reads and updates only the lower
     * triangle (the upper one keeps each step's {@code u / h}): the matrix stays symmetric, so half
     * of it is all each step must stream through memory.
     */
    private static void tridiagonalise(double[][] a, double[] d, double[] e, Progress steps) {
        int n = a.length;
        if (n == 0) {
            return;
        }
        for (int i = n - 1; i > 0; i--) {
            steps.done(n - 1 - i, 3 * n);
            int l = i - 1;
            double h = 0;
            double scale = 0;
            if (l > 0) {
                for (int k = 0; k <= l; k++) {
                    scale += Math.abs(a[i][k]);
                }
            }
            if (l == 0 || scale == 0) {
                e[i] = a[i][l];
            } else {
                double[] ai = a[i];
                for (int k = 0; k <= l; k++) {
                    ai[k] /= scale;
                    h += ai[k] * ai[k];
                }
                double f = ai[l];
                double g = f >= 0 ? -Math.sqrt(h) : Math.sqrt(h);
                e[i] = scale * g;
                h -= f * g;
                ai[l] = f - g;
                // p = A u / h into e[0..l], with u kept in row i and u / h in column i. From the lower
                // triangle, a row at a time: row j adds its entries up to the diagonal to p_j and,
                // standing for column j above the diagonal, each entry left of it to its column's p_k
                Arrays.fill(e, 0, l + 1, 0);
                for (int j = 0; j <= l; j++) {
                    double[] aj = a[j];
                    double uj = ai[j];
                    aj[i] = uj / h;
                    double pj = 0;
                    for (int k = 0; k < j; k++) {
                        pj += aj[k] * ai[k];
                        e[k] += aj[k] * uj;
                    }
                    e[j] += pj + aj[j] * uj;
                }
                f = 0;
                for (int j = 0; j <= l; j++) {
                    e[j] /= h;
                    f += e[j] * ai[j];
                }
                // q = p - hh u, then A <- A - u q^T - q u^T on the lower triangle
                double hh = f / (h + h);
                for (int j = 0; j <= l; j++) {
                    e[j] -= hh * ai[j];
                }
                for (int j = 0; j <= l; j++) {
                    double uj = ai[j];
                    double qj = e[j];
                    double[] aj = a[j];
                    for (int k = 0; k <= j; k++) {
                        aj[k] -= uj * e[k] + qj * ai[k];
                    }
                }
            }
            d[i] = h;
        }
        d[0] = 0;
        e[0] = 0;
        // accumulate the reflections into Q, from the smallest up: Q <- Q - (u / h) (u^T Q) on the leading block
        double[] uq = new double[n];
        for (int i = 0; i < n; i++) {
            steps.done(n + i, 3 * n);
            int l = i - 1;
            if (d[i] != 0) {
                Arrays.fill(uq, 0, i, 0);
                double[] ai = a[i];
                for (int k = 0; k <= l; k++) {
                    double uk = ai[k];
                    double[] ak = a[k];
                    for (int j = 0; j <= l; j++) {
                        uq[j] += uk * ak[j];
                    }
                }
                for (int k = 0; k <= l; k++) {
                    double[] ak = a[k];
                    double scaled = ak[i];
                    for (int j = 0; j <= l; j++) {
                        ak[j] -= scaled * uq[j];
                    }
                }
            }
            d[i] = a[i][i];
            a[i][i] = 1;
            for (int j = 0; j <= l; j++) {
                a[j][i] = 0;
                a[i][j] = 0;
            }
        }
    }

    /**
     * The implicit QL method on the tridiagonal matrix ({@code d}, {@code e} as {@link #tridiagonalise}
     * leaves them): {@code d} ends as the eigenvalues, and each plane rotation is applied to the
     * matching pair of {@code rows} (Q transposed), which end as the eigenvectors. The rotations
     * depend on {@code d} and {@code e} alone, so they are logged and applied to the rows in batches
     * ({@link Rotations}).
     */
    private static void diagonalise(double[] d, double[] e, double[][] rows, int batch, Progress steps) {
        int n = d.length;
        if (n == 0) {
            return;
        }
        for (int i = 1; i < n; i++) {
            e[i - 1] = e[i];
        }
        e[n - 1] = 0;
        Rotations rotations = new Rotations((int) Math.min(batch, (long) n * n));
        double epsilon = Math.ulp(1.0);
        for (int l = 0; l < n; l++) {
            steps.done(2 * n + l, 3 * n);
            int iterations = 0;
            int m;
            do {
                // the first negligible off-diagonal entry at or after l splits the matrix there
                for (m = l; m < n - 1; m++) {
                    if (Math.abs(e[m]) <= epsilon * (Math.abs(d[m]) + Math.abs(d[m + 1]))) {
                        break;
                    }
                }
                if (m != l) {
                    if (iterations++ == MAX_ITERATIONS) {
                        throw new ArithmeticException(
                                "eigenvalue " + l + " did not converge in " + MAX_ITERATIONS + " QL iterations");
                    }
                    double g = (d[l + 1] - d[l]) / (2 * e[l]);
                    double r = Math.hypot(g, 1);
                    g = d[m] - d[l] + e[l] / (g + Math.copySign(r, g));
                    double s = 1;
                    double c = 1;
                    double p = 0;
                    boolean deflated = false;
                    for (int i = m - 1; i >= l; i--) {
                        double f = s * e[i];
                        double b = c * e[i];
                        r = Math.hypot(f, g);
                        e[i + 1] = r;
                        if (r == 0) {
                            // underflow: the rotation is not needed, start again from l
                            d[i + 1] -= p;
                            e[m] = 0;
                            deflated = true;
                            break;
                        }
                        s = f / r;
                        c = g / r;
                        g = d[i + 1] - p;
                        r = (d[i] - g) * s + 2 * c * b;
                        p = s * r;
                        d[i + 1] = g + p;
                        g = c * r - b;
                        rotations.add(i, c, s, rows);
                    }
                    if (deflated) {
                        continue;
                    }
                    d[l] -= p;
                    e[l] = g;
                    e[m] = 0;
                }
            } while (m != l);
        }
        rotations.applyTo(rows);
    }

    /**
     * Plane rotations of rows {@code i} and {@code i + 1}, kept in order and applied to the rows a
     * block of columns at a time: all of a batch's rotations to the first columns of every row, then
     * to the next. Applied one at a time, each QL iteration streams every row it rotates through
     * memory (up to 128 MB of rows at 4,096 dimensions, for each of thousands of iterations); a block
     * of columns of every row stays nearer the CPU for the whole batch. Every entry goes through the
     * same operations in the same order either way, so the result is the same.
     */
    private static final class Rotations {

        /** Rotations logged before a batch is applied: 20 MB of log. */
        static final int BATCH = 1 << 20;

        /** Columns a block holds: 2 KB of each row. */
        private static final int BLOCK = 256;

        private final int[] at;
        private final double[] cosines;
        private final double[] sines;
        private int size;

        Rotations(int capacity) {
            this.at = new int[Math.max(1, capacity)];
            this.cosines = new double[at.length];
            this.sines = new double[at.length];
        }

        /** Logs the rotation of rows {@code i} and {@code i + 1} by {@code c} and {@code s}; a full log goes to {@code rows} first. */
        void add(int i, double c, double s, double[][] rows) {
            if (size == at.length) {
                applyTo(rows);
            }
            at[size] = i;
            cosines[size] = c;
            sines[size++] = s;
        }

        /** Applies the logged rotations to {@code rows}, in the order they were logged, and empties the log. */
        void applyTo(double[][] rows) {
            int n = rows.length;
            for (int from = 0; from < n; from += BLOCK) {
                int to = Math.min(n, from + BLOCK);
                for (int r = 0; r < size; r++) {
                    double c = cosines[r];
                    double s = sines[r];
                    double[] lower = rows[at[r]];
                    double[] upper = rows[at[r] + 1];
                    for (int k = from; k < to; k++) {
                        double u = upper[k];
                        upper[k] = s * lower[k] + c * u;
                        lower[k] = c * lower[k] - s * u;
                    }
                }
            }
            size = 0;
        }
    }

    /** Transposes the square {@code a} in its own rows, and returns it. */
    private static double[][] transposeInPlace(double[][] a) {
        int n = a.length;
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                double t = a[i][j];
                a[i][j] = a[j][i];
                a[j][i] = t;
            }
        }
        return a;
    }
}
