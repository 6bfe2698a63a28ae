package dev.compress.training.trainer;

/**
 * Adds the products of a chunk of centred rows to a covariance sum, {@code cov[a][b] += sum_r x[r][a]
 * x[r][b]} for {@code b >= a}, one tile of entries at a time: a tile stays in the CPU cache for the
 * whole chunk, where one row at a time would stream the whole matrix through memory for every row
 * once it outgrows the cache (a few thousand dimensions). Every entry adds the rows in their order,
 * each product rounded before it is added, through the Vector API or not, so the sum is the same bits
 * as one row and one entry at a time. Entries below the diagonal may take partial sums too; the
 * caller fills them from the upper triangle.
 */
final class CovarianceTiles {

    /** Entries on a side of a tile. */
    static final int TILE = 128;

    private CovarianceTiles() {}

    /** Adds rows {@code chunk[0..rows)} to {@code cov}, through the Vector API where the JVM has it. */
    static void add(double[][] chunk, int rows, double[][] cov) {
        if (VectorCovarianceTiles.AVAILABLE) {
            VectorCovarianceTiles.add(chunk, rows, cov);
        } else {
            addScalar(chunk, rows, cov);
        }
    }

    /** {@link #add} one entry at a time. */
    static void addScalar(double[][] chunk, int rows, double[][] cov) {
        int d = cov.length;
        for (int a0 = 0; a0 < d; a0 += TILE) {
            int a1 = Math.min(d, a0 + TILE);
            for (int b0 = a0; b0 < d; b0 += TILE) {
                int b1 = Math.min(d, b0 + TILE);
                for (int a = a0; a < a1; a++) {
                    addEntries(chunk, rows, cov[a], a, Math.max(a, b0), b1);
                }
            }
        }
    }

    /** Adds the rows' products of column {@code a} with columns {@code from} to {@code to} (exclusive) to {@code ca}. */
    static void addEntries(double[][] chunk, int rows, double[] ca, int a, int from, int to) {
        for (int r = 0; r < rows; r++) {
            double[] row = chunk[r];
            double ra = row[a];
            for (int b = from; b < to; b++) {
                ca[b] += ra * row[b];
            }
        }
    }
}
