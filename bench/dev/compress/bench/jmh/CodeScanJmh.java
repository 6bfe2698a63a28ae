package dev.compress.bench.jmh;

import dev.compress.codec.binary.CodeWords;
import dev.compress.codec.binary.SignCodeEstimator;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.util.VectorUtil;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Kernels scanning a block of 384-d codes held in one array, one operation = the whole block, so
 * that bytes per second compare with {@code streamSum}, the single-thread memory bandwidth: {@code block} 256 MiB spills
 * every cache (a memory-bound scan), 256 KiB stays in L2 (the kernel's own speed).
 *
 * <ul>
 *   <li>{@code streamSum}: plain sum of the words, the memory-bandwidth reference on the same array;
 *   <li>{@code hammingWords}: XOR-popcount against a query code, long words ({@link CodeWords});
 *   <li>{@code hammingLuceneBytes}: the same through Lucene's {@code VectorUtil.xorBitCount} on
 *       per-code byte arrays (the previous kernel);
 *   <li>{@code asymmetricWords}: the graph walk's 4-bit query x 1-bit code estimate ({@link
 *       SignCodeEstimator#quantizedSignDot}), five popcounts per word;
 *   <li>{@code asymmetricLuceneBytes}: the previous estimate: a byte popcount loop plus Lucene's
 *       {@code VectorUtil.int4BitDotProduct} on byte arrays.
 * </ul>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class CodeScanJmh {

    static final int DIMS = 384;
    static final int WORDS = DIMS / 64;
    static final int CODE_BYTES = DIMS / 8;

    @Param({"268435456", "262144"})
    public long blockBytes;

    private long[] words;
    private byte[][] byteCodes;
    private long[] query;
    private byte[] queryBytes;
    private byte[] queryPlanes;
    private SignCodeEstimator estimator;
    private int codes;

    @Setup
    public void setUp() {
        Random random = new Random(42);
        codes = (int) (blockBytes / CODE_BYTES);
        words = new long[codes * WORDS];
        byteCodes = new byte[codes][CODE_BYTES];
        for (int c = 0; c < codes; c++) {
            random.nextBytes(byteCodes[c]);
            long[] packed = CodeWords.pack(byteCodes[c], new long[WORDS]);
            System.arraycopy(packed, 0, words, c * WORDS, WORDS);
        }
        queryBytes = new byte[CODE_BYTES];
        random.nextBytes(queryBytes);
        query = CodeWords.pack(queryBytes, new long[WORDS]);
        queryPlanes = new byte[4 * CODE_BYTES];
        random.nextBytes(queryPlanes);
        float[] floatQuery = new float[DIMS];
        for (int i = 0; i < DIMS; i++) {
            floatQuery[i] = (float) random.nextGaussian();
        }
        estimator = new SignCodeEstimator(floatQuery, new float[DIMS], VectorSimilarityFunction.DOT_PRODUCT);
    }

    /** Bytes one operation reads: what the harness divides by the time per operation. */
    public static long bytesPerOperation(long blockBytes) {
        return blockBytes / CODE_BYTES * CODE_BYTES;
    }

    @Benchmark
    public long streamSum() {
        long sum = 0;
        for (long w : words) {
            sum += w;
        }
        return sum;
    }

    @Benchmark
    public long hammingWords() {
        long total = 0;
        long q0 = query[0], q1 = query[1], q2 = query[2], q3 = query[3], q4 = query[4], q5 = query[5];
        for (int base = 0; base < words.length; base += WORDS) {
            total += Long.bitCount(words[base] ^ q0)
                    + Long.bitCount(words[base + 1] ^ q1)
                    + Long.bitCount(words[base + 2] ^ q2)
                    + Long.bitCount(words[base + 3] ^ q3)
                    + Long.bitCount(words[base + 4] ^ q4)
                    + Long.bitCount(words[base + 5] ^ q5);
        }
        return total;
    }

    @Benchmark
    public long hammingWordsGeneric() {
        long total = 0;
        long[] code = new long[WORDS];
        for (int base = 0; base < words.length; base += WORDS) {
            System.arraycopy(words, base, code, 0, WORDS);
            total += CodeWords.xorBitCount(query, code);
        }
        return total;
    }

    @Benchmark
    public long hammingLuceneBytes() {
        long total = 0;
        for (byte[] code : byteCodes) {
            total += VectorUtil.xorBitCount(queryBytes, code);
        }
        return total;
    }

    @Benchmark
    public float asymmetricWords() {
        float total = 0;
        long[] code = new long[WORDS];
        for (int base = 0; base < words.length; base += WORDS) {
            System.arraycopy(words, base, code, 0, WORDS);
            total += estimator.quantizedSignDot(code);
        }
        return total;
    }

    @Benchmark
    public long asymmetricLuceneBytes() {
        long total = 0;
        for (byte[] code : byteCodes) {
            int setBits = 0;
            for (byte b : code) {
                setBits += Integer.bitCount(b & 0xFF);
            }
            total += setBits + VectorUtil.int4BitDotProduct(queryPlanes, code);
        }
        return total;
    }
}
