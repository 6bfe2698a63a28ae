package dev.compress.training.trainer;

import static org.junit.Assert.assertEquals;

import dev.compress.training.data.VectorSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.Test;

public class PcaCovarianceTests {

    @Test
    public void tiledCovarianceIsTheRowByRowSumBitForBit() {
        Random random = new Random(17);
        // dimensions across several tiles and a partial one, rows across several chunks and a partial one
        int n = 150;
        int d = 300;
        float[] data = new float[n * d];
        for (int i = 0; i < data.length; i++) {
            data[i] = (float) (random.nextGaussian() * (1 + i % d / 100.0));
        }
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ids.add("d" + i);
        }
        VectorSet rows = new VectorSet(ids, data, d);
        double[] mean = PcaTrainer.mean(rows);
        double[][] tiled = PcaTrainer.covariance(rows, mean);
        double[][] reference = rowByRow(data, n, d, mean);
        for (int a = 0; a < d; a++) {
            for (int b = 0; b < d; b++) {
                assertEquals(
                        "(" + a + ", " + b + ")",
                        Double.doubleToRawLongBits(reference[a][b]),
                        Double.doubleToRawLongBits(tiled[a][b]));
            }
        }
    }

    /** One centred row at a time into the upper triangle, then mirrored: the order every entry sums in. */
    private static double[][] rowByRow(float[] x, int n, int d, double[] mean) {
        double[][] cov = new double[d][d];
        double[] row = new double[d];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < d; j++) {
                row[j] = x[i * d + j] - mean[j];
            }
            for (int a = 0; a < d; a++) {
                for (int b = a; b < d; b++) {
                    cov[a][b] += row[a] * row[b];
                }
            }
        }
        for (int a = 0; a < d; a++) {
            for (int b = a; b < d; b++) {
                cov[a][b] /= n - 1;
                cov[b][a] = cov[a][b];
            }
        }
        return cov;
    }
}
