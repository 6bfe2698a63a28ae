package dev.compress.training.trainer;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link CovarianceTiles#add} with the Vector API, where the JVM has it ({@code --add-modules
 * jdk.incubator.vector}, which OpenSearch's jvm.options adds). Four rows of a tile by two vectors of
 * columns stay in registers while the whole chunk is added to them, so each entry is loaded and
 * stored once per chunk instead of once per row; the products are multiplied and added as two
 * operations, not fused, so every entry gets the bits of {@link CovarianceTiles#addScalar}. Seconds
 * per corpus PCA: {@code bench/run quick pca}.
 */
final class VectorCovarianceTiles {

    /** Whether the JVM has the module and registers of at least 256 bits (4 doubles). */
    static final boolean AVAILABLE =
            ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent() && Species.DOUBLES.vectorBitSize() >= 256;

    /** Rows of a tile held in registers at once. */
    private static final int ROWS = 4;

    private VectorCovarianceTiles() {}

    /** Holds the species apart, so that loading {@link VectorCovarianceTiles} never needs the module. */
    private static final class Species {
        static final VectorSpecies<Double> DOUBLES = DoubleVector.SPECIES_PREFERRED;
    }

    /**
     * {@link CovarianceTiles#add}. In a tile on the diagonal, the blocks of columns start at the one that
     * holds the diagonal, so some entries below it are summed too; the caller ignores those.
     */
    static void add(double[][] chunk, int rows, double[][] cov) {
        int d = cov.length;
        int lanes = Species.DOUBLES.length();
        int width = 2 * lanes;
        for (int a0 = 0; a0 < d; a0 += CovarianceTiles.TILE) {
            int a1 = Math.min(d, a0 + CovarianceTiles.TILE);
            for (int b0 = a0; b0 < d; b0 += CovarianceTiles.TILE) {
                int b1 = Math.min(d, b0 + CovarianceTiles.TILE);
                int a = a0;
                for (; a + ROWS <= a1; a += ROWS) {
                    int b = b0 >= a ? b0 : b0 + (a - b0) / width * width;
                    for (; b + width <= b1; b += width) {
                        Block.add(chunk, rows, cov, a, b, lanes);
                    }
                    for (int i = a; i < a + ROWS; i++) {
                        CovarianceTiles.addEntries(chunk, rows, cov[i], i, Math.max(i, b), b1);
                    }
                }
                for (; a < a1; a++) {
                    CovarianceTiles.addEntries(chunk, rows, cov[a], a, Math.max(a, b0), b1);
                }
            }
        }
    }

    /**
     * The register blocks, apart from {@link VectorCovarianceTiles}: verifying a class loads the vector
     * types its methods pass around, so a JVM without the module could not load a class that held
     * them, and could not even read {@link #AVAILABLE} to learn that it should not.
     */
    private static final class Block {

        /**
         * Adds the rows to entries {@code a..a+3} x {@code b..b+2*lanes}, written out with no vector passed
         * to or returned from a method: a vector that crosses a call the compiler does not inline is boxed.
         */
        static void add(double[][] chunk, int rows, double[][] cov, int a, int b, int lanes) {
            VectorSpecies<Double> species = Species.DOUBLES;
            double[] c0 = cov[a];
            double[] c1 = cov[a + 1];
            double[] c2 = cov[a + 2];
            double[] c3 = cov[a + 3];
            DoubleVector s00 = DoubleVector.fromArray(species, c0, b);
            DoubleVector s01 = DoubleVector.fromArray(species, c0, b + lanes);
            DoubleVector s10 = DoubleVector.fromArray(species, c1, b);
            DoubleVector s11 = DoubleVector.fromArray(species, c1, b + lanes);
            DoubleVector s20 = DoubleVector.fromArray(species, c2, b);
            DoubleVector s21 = DoubleVector.fromArray(species, c2, b + lanes);
            DoubleVector s30 = DoubleVector.fromArray(species, c3, b);
            DoubleVector s31 = DoubleVector.fromArray(species, c3, b + lanes);
            for (int r = 0; r < rows; r++) {
                double[] row = chunk[r];
                DoubleVector x0 = DoubleVector.fromArray(species, row, b);
                DoubleVector x1 = DoubleVector.fromArray(species, row, b + lanes);
                s00 = s00.add(x0.mul(row[a]));
                s01 = s01.add(x1.mul(row[a]));
                s10 = s10.add(x0.mul(row[a + 1]));
                s11 = s11.add(x1.mul(row[a + 1]));
                s20 = s20.add(x0.mul(row[a + 2]));
                s21 = s21.add(x1.mul(row[a + 2]));
                s30 = s30.add(x0.mul(row[a + 3]));
                s31 = s31.add(x1.mul(row[a + 3]));
            }
            s00.intoArray(c0, b);
            s01.intoArray(c0, b + lanes);
            s10.intoArray(c1, b);
            s11.intoArray(c1, b + lanes);
            s20.intoArray(c2, b);
            s21.intoArray(c2, b + lanes);
            s30.intoArray(c3, b);
            s31.intoArray(c3, b + lanes);
        }
    }
}
