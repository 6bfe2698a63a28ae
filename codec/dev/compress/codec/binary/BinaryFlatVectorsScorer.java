package dev.compress.codec.binary;

import java.io.IOException;
import org.apache.lucene.codecs.hnsw.FlatVectorsScorer;
import org.apache.lucene.index.KnnVectorValues;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.util.hnsw.RandomVectorScorer;
import org.apache.lucene.util.hnsw.RandomVectorScorerSupplier;
import org.apache.lucene.util.hnsw.UpdateableRandomVectorScorer;

/**
 * Scores sign codes.
 *
 * <ul>
 *   <li>Code against code (graph construction at merge): Hamming similarity {@code 1 - hamming /
 *       dims} in [0, 1].
 *   <li>Float query against codes (graph walk): the query is binarised with the segment's centre
 *       and scored with the same Hamming similarity, so a search costs one XOR-popcount per
 *       visited node.
 *   <li>Asymmetric float query against codes ({@link #asymmetricScorer}): the field's similarity
 *       between the float query and the decoded code ({@link SignBinarizer#decode}). Finer than
 *       Hamming (it weighs each disagreeing bit by the query's magnitude in that dimension); used
 *       to rescore when no floats are stored.
 * </ul>
 *
 * Values that are not codes (the float vectors an indexing buffer holds before flush, byte vector
 * fields) go to {@code rawScorer}: the segment centre is unknown until flush, so graphs of freshly
 * flushed segments are built on exact similarities, as Lucene's quantized formats do; merged
 * segments, which hold nearly all vectors of a long-lived index, are built on codes.
 */
public final class BinaryFlatVectorsScorer implements FlatVectorsScorer {

  private final FlatVectorsScorer rawScorer;

  public BinaryFlatVectorsScorer(FlatVectorsScorer rawScorer) {
    this.rawScorer = rawScorer;
  }

  @Override
  public RandomVectorScorerSupplier getRandomVectorScorerSupplier(
      VectorSimilarityFunction similarity, KnnVectorValues values) throws IOException {
    if (values instanceof BinarizedVectorValues codes) {
      return new HammingScorerSupplier(codes);
    }
    return rawScorer.getRandomVectorScorerSupplier(similarity, values);
  }

  @Override
  public RandomVectorScorer getRandomVectorScorer(
      VectorSimilarityFunction similarity, KnnVectorValues values, float[] target) throws IOException {
    if (values instanceof BinarizedVectorValues codes) {
      FlatVectorsScorer.checkDimensions(target.length, codes.dimension());
      return hammingScorer(codes, binarizeQuery(codes, target));
    }
    return rawScorer.getRandomVectorScorer(similarity, values, target);
  }

  @Override
  public RandomVectorScorer getRandomVectorScorer(
      VectorSimilarityFunction similarity, KnnVectorValues values, byte[] target) throws IOException {
    return rawScorer.getRandomVectorScorer(similarity, values, target);
  }

  /** Scores {@code target} against the decoded codes with the field's similarity. */
  public RandomVectorScorer asymmetricScorer(BinarizedVectorValues codes, float[] target) {
    FlatVectorsScorer.checkDimensions(target.length, codes.dimension());
    float[] decoded = new float[codes.dimension()];
    VectorSimilarityFunction similarity = codes.similarity();
    return new RandomVectorScorer.AbstractRandomVectorScorer(codes) {
      @Override
      public float score(int ord) throws IOException {
        SignBinarizer.decode(codes.vectorValue(ord), codes.centroid(), codes.scale(), decoded);
        return similarity.compare(target, decoded);
      }
    };
  }

  /** The code of a float query in the segment that {@code codes} belong to. */
  static byte[] binarizeQuery(BinarizedVectorValues codes, float[] target) {
    float[] prepared = SignBinarizer.prepare(target, codes.similarity(), new float[target.length]);
    byte[] code = new byte[codes.getVectorByteLength()];
    SignBinarizer.binarize(prepared, codes.centroid(), code);
    return code;
  }

  private static RandomVectorScorer hammingScorer(BinarizedVectorValues codes, byte[] queryCode) {
    int dims = codes.dimension();
    return new RandomVectorScorer.AbstractRandomVectorScorer(codes) {
      @Override
      public float score(int ord) throws IOException {
        return SignBinarizer.hammingScore(queryCode, codes.vectorValue(ord), dims);
      }
    };
  }

  @Override
  public String toString() {
    return "BinaryFlatVectorsScorer(rawScorer=" + rawScorer + ")";
  }

  /** Code-against-code Hamming scorers for graph construction. */
  private static final class HammingScorerSupplier implements RandomVectorScorerSupplier {
    private final BinarizedVectorValues codes;

    HammingScorerSupplier(BinarizedVectorValues codes) {
      this.codes = codes;
    }

    @Override
    public UpdateableRandomVectorScorer scorer() throws IOException {
      BinarizedVectorValues targets = codes.copy();
      BinarizedVectorValues others = codes.copy();
      byte[] target = new byte[codes.getVectorByteLength()];
      int dims = codes.dimension();
      return new UpdateableRandomVectorScorer.AbstractUpdateableRandomVectorScorer(others) {
        @Override
        public void setScoringOrdinal(int node) throws IOException {
          System.arraycopy(targets.vectorValue(node), 0, target, 0, target.length);
        }

        @Override
        public float score(int ord) throws IOException {
          return SignBinarizer.hammingScore(target, others.vectorValue(ord), dims);
        }
      };
    }

    @Override
    public RandomVectorScorerSupplier copy() throws IOException {
      return new HammingScorerSupplier(codes.copy());
    }
  }
}
