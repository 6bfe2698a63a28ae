package dev.compress.harness;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.lucene.util.VectorUtil;

/**
 * A benchmark data set: corpus and query vectors (unit length), and for real data the graded
 * judgments of the evaluated queries.
 *
 * @param judgments query index -> (corpus index -> grade); empty for synthetic data
 */
public record BenchData(String name, float[][] corpus, float[][] queries, Map<Integer, Map<Integer, Integer>> judgments) {

  /** BEIR embeddings ({@code corpus.f32}, {@code queries.f32}, {@code .ids}) and a qrels TSV. */
  public static BenchData beir(String name, Path embeddings, Path qrels) throws IOException {
    float[][] corpus = readF32(embeddings.resolve("corpus.f32"), 384);
    float[][] queries = readF32(embeddings.resolve("queries.f32"), 384);
    Map<String, Integer> docIndex = index(Files.readAllLines(embeddings.resolve("corpus.ids")));
    Map<String, Integer> queryIndex = index(Files.readAllLines(embeddings.resolve("queries.ids")));
    Map<Integer, Map<Integer, Integer>> judgments = new HashMap<>();
    for (String line : Files.readAllLines(qrels).subList(1, Files.readAllLines(qrels).size())) {
      String[] cols = line.split("\t");
      Integer q = queryIndex.get(cols[0]);
      Integer d = docIndex.get(cols[1]);
      if (q == null || d == null) {
        throw new IllegalStateException("unknown id in qrels line: " + line);
      }
      judgments.computeIfAbsent(q, x -> new HashMap<>()).put(d, Integer.parseInt(cols[2]));
    }
    return new BenchData(name, corpus, queries, judgments);
  }

  /**
   * Clustered unit vectors with a low intrinsic dimension, like real embeddings: a cluster centre
   * plus a 32-dimensional latent Gaussian mapped into {@code dims} dimensions, plus small
   * isotropic noise.
   */
  public static BenchData synthetic(int docs, int queries, int dims, long seed) {
    Random random = new Random(seed);
    int clusters = 200, latent = 32;
    float[][] centres = gaussian(random, clusters, dims, 1f);
    float[][] mixing = gaussian(random, dims, latent, 0.5f);
    return new BenchData(
        "synthetic " + docs + " x " + dims,
        clustered(random, docs, centres, mixing),
        clustered(random, queries, centres, mixing),
        Map.of());
  }

  private static float[][] clustered(Random random, int n, float[][] centres, float[][] mixing) {
    int dims = mixing.length, latent = mixing[0].length;
    float[][] out = new float[n][dims];
    float[] z = new float[latent];
    for (float[] v : out) {
      float[] centre = centres[random.nextInt(centres.length)];
      for (int j = 0; j < latent; j++) {
        z[j] = (float) random.nextGaussian();
      }
      for (int i = 0; i < dims; i++) {
        v[i] = centre[i] + VectorUtil.dotProduct(mixing[i], z) + 0.2f * (float) random.nextGaussian();
      }
      VectorUtil.l2normalize(v);
    }
    return out;
  }

  private static float[][] gaussian(Random random, int rows, int cols, float sigma) {
    float[][] m = new float[rows][cols];
    for (float[] row : m) {
      for (int j = 0; j < cols; j++) {
        row[j] = sigma * (float) random.nextGaussian();
      }
    }
    return m;
  }

  private static float[][] readF32(Path file, int dims) throws IOException {
    FloatBuffer buffer = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer();
    float[][] rows = new float[buffer.remaining() / dims][dims];
    for (float[] row : rows) {
      buffer.get(row);
    }
    return rows;
  }

  private static Map<String, Integer> index(List<String> ids) {
    Map<String, Integer> index = new HashMap<>();
    for (int i = 0; i < ids.size(); i++) {
      index.put(ids.get(i), i);
    }
    return index;
  }
}
