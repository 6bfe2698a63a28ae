package dev.compress.training.eval;

import dev.compress.training.data.Qrels;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.IntStream;

/**
 * A synthetic corpus whose rankings are known without searching it. Query q is 1 at dimension q and
 * -0.001 elsewhere. Its 15 planted documents, spread over the file, are 1 - 0.01 j at dimension q
 * (j = 0 best) and small negative values elsewhere; every other document is small positive noise. So:
 * the float top 10 of q is its planted j = 0..9 in order (noise moves a dot product by < 0.004);
 * its sign code (bit q alone) equals its planted documents' codes, is 2 bits from other queries'
 * planted documents and 383 from the background, so the Hamming top 10 is its planted documents in
 * trec_eval's order for equal scores (document id, reverse string order) and rescoring 100 Hamming candidates restores the float order. The same holds in the
 * space of the first 64 dimensions. Planted j = 0, 2, 4 are judged relevant.
 */
final class PlantedCorpus {

    static final int DIM = 384;
    static final int QUERIES = 20;
    static final int PLANTED = 15;
    static final int[] RELEVANT = {0, 2, 4};

    private final int rows;

    PlantedCorpus(int rows) {
        this.rows = rows;
    }

    /** Row of query q's planted document j: distinct for all (q, j), since 7919 shares no factor with the row count used. */
    int row(int q, int j) {
        return (int) (((long) (q * PLANTED + j) * 7919 + 13) % rows);
    }

    /** Writes {@code corpus.{f32,ids}} and {@code queries.{f32,ids}} into {@code dir}, block by block. */
    void write(Path dir) throws IOException {
        Map<Integer, int[]> planted = new LinkedHashMap<>();
        for (int q = 0; q < QUERIES; q++) {
            for (int j = 0; j < PLANTED; j++) {
                planted.put(row(q, j), new int[] {q, j});
            }
        }
        SplittableRandom rnd = new SplittableRandom(7);
        int block = 1024;
        ByteBuffer buf = ByteBuffer.allocate(block * DIM * 4).order(ByteOrder.LITTLE_ENDIAN);
        try (FileChannel out =
                FileChannel.open(dir.resolve("corpus.f32"), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            for (int start = 0; start < rows; start += block) {
                buf.clear();
                for (int r = start; r < Math.min(rows, start + block); r++) {
                    int[] qj = planted.get(r);
                    for (int d = 0; d < DIM; d++) {
                        float noise = 0.01f * rnd.nextFloat();
                        buf.putFloat(qj == null ? noise : d == qj[0] ? 1 - 0.01f * qj[1] : -noise);
                    }
                }
                buf.flip();
                while (buf.hasRemaining()) {
                    out.write(buf);
                }
            }
        }
        Files.write(
                dir.resolve("corpus.ids"),
                IntStream.range(0, rows).mapToObj(r -> "d" + r).toList());
        ByteBuffer queries = ByteBuffer.allocate(QUERIES * DIM * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (int q = 0; q < QUERIES; q++) {
            for (int d = 0; d < DIM; d++) {
                queries.putFloat(d == q ? 1f : -0.001f);
            }
        }
        Files.write(dir.resolve("queries.f32"), queries.array());
        Files.write(
                dir.resolve("queries.ids"),
                IntStream.range(0, QUERIES).mapToObj(q -> "q" + q).toList());
    }

    Qrels qrels() {
        Map<String, Map<String, Integer>> judged = new LinkedHashMap<>();
        for (int q = 0; q < QUERIES; q++) {
            Map<String, Integer> docs = new LinkedHashMap<>();
            for (int j : RELEVANT) {
                docs.put("d" + row(q, j), 1);
            }
            judged.put("q" + q, docs);
        }
        return new Qrels(judged);
    }

    /** The top 10 of query q under {@code encoding}, best first. */
    int[] top10(int q, Encoding encoding) {
        int[] byScore = IntStream.range(0, 10).map(j -> row(q, j)).toArray();
        if (encoding != Encoding.BINARY) {
            return byScore;
        }
        return IntStream.range(0, PLANTED)
                .mapToObj(j -> row(q, j))
                .sorted(Comparator.comparing((Integer row) -> "d" + row).reversed())
                .limit(10)
                .mapToInt(Integer::intValue)
                .toArray();
    }

    /** The 5 hardest non-relevant documents of query q: planted j = 1, 3, 5, 6, 7. */
    int[] hardNegatives(int q) {
        return IntStream.of(1, 3, 5, 6, 7).map(j -> row(q, j)).toArray();
    }

    /** Per-query nDCG@10 the known rankings give. */
    double[] ndcg(Encoding encoding) {
        Qrels qrels = qrels();
        double[] out = new double[QUERIES];
        for (int q = 0; q < QUERIES; q++) {
            List<String> ranked = new ArrayList<>();
            for (int row : top10(q, encoding)) {
                ranked.add("d" + row);
            }
            out[q] = RetrievalMetrics.ndcg(ranked, qrels.judgments("q" + q), 10);
        }
        return out;
    }
}
