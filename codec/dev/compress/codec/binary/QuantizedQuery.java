package dev.compress.codec.binary;

import java.io.IOException;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.store.DataOutput;
import org.apache.lucene.store.RandomAccessInput;
import org.apache.lucene.util.VectorUtil;

/**
 * A query's residual {@code r = q - c} scalar-quantised to 4 bits, in the form that scores it
 * against sign codes with popcounts (see {@link SignCodeEstimator}): four bit planes (plane {@code
 * b} holds bit {@code b} of every dimension's level), the quantisation's lower bound and step, the
 * sum of the levels, and the two query terms of the score ({@code <q, c> - <c, c>} and {@code
 * |q|^2}).
 *
 * <p>It has a fixed-size binary record ({@link #recordBytes}): a merge writes one per vector, so
 * that the graph builder can take any node as the query and score it against the others' codes
 * the way a search does ({@link MergeGraphScorerSupplier}). It is mutable so that one instance
 * serves a whole graph build.
 */
final class QuantizedQuery {

    private static final int BITS = 4;
    private static final int LEVELS = (1 << BITS) - 1;
    private static final int SCALARS = 4;

    private final VectorSimilarityFunction similarity;
    private final int dims;
    private final long[] plane0, plane1, plane2, plane3;
    private float lower;
    private float step;
    private long levelSum;
    private float queryOffset;
    private float querySquaredNorm;

    QuantizedQuery(int dims, VectorSimilarityFunction similarity) {
        this.dims = dims;
        this.similarity = similarity;
        int words = CodeWords.words(dims);
        this.plane0 = new long[words];
        this.plane1 = new long[words];
        this.plane2 = new long[words];
        this.plane3 = new long[words];
    }

    /** Bytes of one record: the four planes, the four float scalars and the level sum. */
    static int recordBytes(int dims) {
        return BITS * CodeWords.words(dims) * Long.BYTES + SCALARS * Float.BYTES + Long.BYTES;
    }

    /**
     * Quantises {@code residual} ({@code q - c}, of this query's dimension); {@code queryOffset} is
     * {@code <q, c> - <c, c>}, {@code querySquaredNorm} is {@code |q|^2}.
     */
    void quantise(float[] residual, float queryOffset, float querySquaredNorm) {
        float min = Float.POSITIVE_INFINITY, max = Float.NEGATIVE_INFINITY;
        for (float r : residual) {
            min = Math.min(min, r);
            max = Math.max(max, r);
        }
        this.lower = min;
        this.step = max > min ? (max - min) / LEVELS : 0f;
        this.queryOffset = queryOffset;
        this.querySquaredNorm = querySquaredNorm;
        float inverse = step == 0 ? 0 : 1 / step;
        long levels = 0;
        // branch-free: a level's bits go to the four planes by shifts, since levels are random and a branch
        // per bit would be mispredicted about half the time
        for (int w = 0, start = 0; w < plane0.length; w++, start += Long.SIZE) {
            long p0 = 0, p1 = 0, p2 = 0, p3 = 0;
            int end = Math.min(dims, start + Long.SIZE);
            for (int i = start; i < end; i++) {
                long level = (long) ((residual[i] - min) * inverse + 0.5f);
                levels += level;
                int shift = i - start;
                p0 |= (level & 1) << shift;
                p1 |= ((level >>> 1) & 1) << shift;
                p2 |= ((level >>> 2) & 1) << shift;
                p3 |= ((level >>> 3) & 1) << shift;
            }
            plane0[w] = p0;
            plane1[w] = p1;
            plane2[w] = p2;
            plane3[w] = p3;
        }
        this.levelSum = levels;
    }

    /**
     * {@code <s, q - c>} from the 4-bit query, {@code sum_i s_i (lower + step * level_i)}, for the
     * code packed into words ({@link CodeWords}) that starts at {@code code[offset]}: five popcounts
     * per 64 dimensions, the planes' and the code's own. Its error is at most {@code dims * step /
     * 2}.
     */
    float signDot(long[] code, int offset) {
        int setBits = 0;
        long levelsOnSetBits = 0;
        for (int w = 0; w < plane0.length; w++) {
            long c = code[offset + w];
            setBits += Long.bitCount(c);
            levelsOnSetBits += Long.bitCount(c & plane0[w])
                    + (Long.bitCount(c & plane1[w]) << 1)
                    + (Long.bitCount(c & plane2[w]) << 2)
                    + (Long.bitCount(c & plane3[w]) << 3);
        }
        return lower * (2 * setBits - dims) + step * (2 * levelsOnSetBits - levelSum);
    }

    /**
     * The similarity score for a code with {@code signDot = <s, q - c>} and the corrections that
     * start at {@code corrections[offset]} (mapping as documented on {@link SignCodeEstimator}).
     */
    float score(float signDot, float[] corrections, int offset) {
        float innerProduct = corrections[offset] * signDot + corrections[offset + 1] + queryOffset;
        return switch (similarity) {
            case DOT_PRODUCT, COSINE -> Math.max((1 + innerProduct) / 2, 0);
            case MAXIMUM_INNER_PRODUCT -> VectorUtil.scaleMaxInnerProductScore(innerProduct);
            case EUCLIDEAN -> 1 / (1 + Math.max(0, querySquaredNorm - 2 * innerProduct + corrections[offset + 2]));
        };
    }

    /** This query's score against the code of {@code ord}. */
    float score(BinarizedVectorValues codes, int ord) throws IOException {
        return score(signDot(codes.codeWords(ord), 0), codes.corrections(ord), 0);
    }

    /**
     * Scores the codes of {@code ords[0..count)} into {@code scores}, their records read as one
     * batch into {@code batch} ({@link BinarizedVectorValues#readRecords}), so that the memory
     * latency of a batch is paid about once rather than once per code. Returns the highest score.
     */
    float bulkScore(BinarizedVectorValues codes, RecordBatch batch, int[] ords, float[] scores, int count)
            throws IOException {
        batch.read(codes, ords, count);
        float max = Float.NEGATIVE_INFINITY;
        for (int i = 0; i < count; i++) {
            scores[i] = score(signDot(batch.words, i * batch.stride), batch.corrections, i * SignBinarizer.CORRECTIONS);
            max = Math.max(max, scores[i]);
        }
        return max;
    }

    /** Writes this query's record. */
    void write(DataOutput out) throws IOException {
        for (long[] plane : new long[][] {plane0, plane1, plane2, plane3}) {
            for (long word : plane) {
                out.writeLong(word);
            }
        }
        for (float scalar : new float[] {lower, step, queryOffset, querySquaredNorm}) {
            out.writeInt(Float.floatToIntBits(scalar));
        }
        out.writeLong(levelSum);
    }

    /** Replaces this query by the record at {@code offset} of {@code in}. */
    void read(RandomAccessInput in, long offset) throws IOException {
        long pos = offset;
        for (long[] plane : new long[][] {plane0, plane1, plane2, plane3}) {
            for (int w = 0; w < plane.length; w++, pos += Long.BYTES) {
                plane[w] = in.readLong(pos);
            }
        }
        lower = Float.intBitsToFloat(in.readInt(pos));
        step = Float.intBitsToFloat(in.readInt(pos + Float.BYTES));
        queryOffset = Float.intBitsToFloat(in.readInt(pos + 2 * Float.BYTES));
        querySquaredNorm = Float.intBitsToFloat(in.readInt(pos + 3 * Float.BYTES));
        levelSum = in.readLong(pos + SCALARS * Float.BYTES);
    }
}
