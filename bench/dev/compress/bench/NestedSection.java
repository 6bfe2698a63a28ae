package dev.compress.bench;

import static dev.compress.bench.FormatComparison.FIELD;
import static dev.compress.bench.FormatComparison.K;
import static dev.compress.bench.FormatComparison.LUCENE_FLOAT;
import static dev.compress.bench.FormatComparison.LUCENE_OSQ;
import static dev.compress.bench.FormatComparison.OURS_BINARY;

import dev.compress.codec.search.ParentJoin;
import dev.compress.codec.search.RescoringKnnQuery;
import dev.compress.harness.BenchData;
import dev.compress.training.data.DataDirectory;
import java.io.Closeable;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.join.BitSetProducer;
import org.apache.lucene.search.join.QueryBitSetProducer;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.tests.util.TestUtil;
import org.apache.lucene.util.BitSet;
import org.apache.lucene.util.IOUtils;

/**
 * Search inside nested documents, one vector per chunk ({@link ChunkedCorpus}: every document of
 * scifact, and in {@code full} mode of a synthetic set of {@code -Dbench.nested.synthetic.docs}
 * (100,000), a parent of 1 to {@value #MAX_CHUNKS} chunks): Lucene float32 HNSW, Lucene's 1-bit OSQ and
 * our binary format (both rescored), each searched as a {@code compressed_knn} inside a {@code nested} query searches a
 * shard (Lucene's diversifying walk, one best chunk per parent; with rescoring, every chunk of each
 * candidate parent scored with the float query). Swept over {@code oversample_factor}: recall@10 of
 * the parents against the exact best-chunk ranking, and CPU time per query, every budget timed in
 * one interleaved pass.
 */
final class NestedSection implements BenchSection {

    static final int MAX_CHUNKS = 6;

    /** Length of the noise added to a document's vector to make each of its chunks. */
    static final double CHUNK_NOISE = 0.5;

    private static final int[] BUDGETS = {1, 2, 3, 4, 5, 8, 12, 16, 24};
    private static final double[] RECALL_LEVELS = {0.90, 0.95};
    private static final String PARENT = "parent";
    private static final List<String> INDEXES = List.of(LUCENE_FLOAT, LUCENE_OSQ, OURS_BINARY);

    @Override
    public String name() {
        return "nested";
    }

    @Override
    public List<ResultTable> run(BenchMode mode) throws Exception {
        Path data = DataDirectory.resolve();
        List<BenchData> sets = new ArrayList<>();
        sets.add(BenchData.beir(
                "scifact bge-small-en-v1.5 (5,183 x 384, 300 test queries)",
                data.resolve("embeddings/scifact/bge-small-en-v1.5"),
                data.resolve("beir/scifact/qrels/test.tsv")));
        int synthetic = Integer.getInteger("bench.nested.synthetic.docs", mode.full() ? 100_000 : 0);
        if (synthetic > 0) {
            sets.add(BenchData.synthetic(synthetic, 500, 384, 42));
        }
        List<ResultTable> tables = new ArrayList<>();
        for (BenchData set : sets) {
            tables.addAll(sweep(set, mode.full() ? 10 : 3));
        }
        return tables;
    }

    /** The sweep on {@code set}'s documents as chunked parents, and its equal-recall read-out. */
    private static List<ResultTable> sweep(BenchData set, int rounds) throws IOException {
        ChunkedCorpus corpus = ChunkedCorpus.of(set.corpus(), MAX_CHUNKS, CHUNK_NOISE, 42);
        float[][] queries = set.queries();
        int[][] truth = corpus.exactTopParents(queries, K);
        List<NestedIndex> open = new ArrayList<>();
        try {
            for (String index : INDEXES) {
                open.add(NestedIndex.build(
                        corpus, FormatComparison.INDEXES.get(index).format().get()));
            }
            List<Map<String, Object>> rows = new ArrayList<>();
            List<Integer> rowIndex = new ArrayList<>();
            for (int i = 0; i < INDEXES.size(); i++) {
                for (int budget : BUDGETS) {
                    Map<String, Object> row = new LinkedHashMap<>();
                    row.put("index", INDEXES.get(i));
                    row.put("oversample_factor", budget);
                    row.put("rescore", LUCENE_FLOAT.equals(INDEXES.get(i)) ? "no" : "yes");
                    rows.add(row);
                    rowIndex.add(i);
                }
            }
            double[] recall = new double[rows.size()];
            long[] cpuNanos = new long[rows.size()];
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            InterleavedPass.run(rows.size(), queries.length, rounds, (r, q, round) -> {
                NestedIndex index = open.get(rowIndex.get(r));
                int budget = (Integer) rows.get(r).get("oversample_factor");
                boolean rescore = "yes".equals(rows.get(r).get("rescore"));
                long start = threads.getCurrentThreadCpuTime();
                ScoreDoc[] hits = index.search(queries[q], budget, rescore);
                long spent = threads.getCurrentThreadCpuTime() - start;
                if (round < 0) {
                    recall[r] += index.parentRecall(hits, truth[q]);
                } else {
                    cpuNanos[r] += spent;
                }
            });
            ResultTable sweep = new ResultTable(
                    set.name() + " as nested chunks (" + corpus.parents() + " parents, " + corpus.chunks().length
                            + " chunks), k = 10",
                    List.of("index", "oversample_factor", "rescore", RecallSweep.RECALL, "cpu_us_per_query"));
            for (int r = 0; r < rows.size(); r++) {
                rows.get(r).put(RecallSweep.RECALL, recall[r] / queries.length);
                rows.get(r).put("cpu_us_per_query", cpuNanos[r] / 1e3 / ((double) rounds * queries.length));
                sweep.add(rows.get(r));
            }
            sweep.note("Each document is a parent of 1 to " + MAX_CHUNKS
                    + " chunks, each chunk the document's vector plus Gaussian noise of length " + CHUNK_NOISE
                    + ", normalised; the set's queries. recall@10: of the 10 parents with the best chunk by exact dot"
                    + " product. One segment per index, one thread; oversample_factor: parents per walk as a multiple of k."
                    + " With rescore, every chunk of each candidate parent is scored with the float query and the parent"
                    + " ranks by its best. cpu_us_per_query: the searching thread's CPU time, every row timed in one pass"
                    + " (blocks of 50 queries to each row in turn, " + rounds + " rounds after an untimed one).");
            return List.of(sweep, equalRecall(set.name(), rows));
        } finally {
            IOUtils.close(open);
        }
    }

    /** Each index's cheapest budget reaching each recall level, and its CPU time against float32's. */
    private static ResultTable equalRecall(String setName, List<Map<String, Object>> rows) {
        ResultTable table = new ResultTable(
                setName + " as nested chunks at equal recall@10 (smallest oversample_factor reaching the level)",
                List.of(
                        "recall_level",
                        "index",
                        "oversample_factor",
                        RecallSweep.RECALL,
                        "cpu_us_per_query",
                        "speedup_vs_float32"));
        for (double level : RECALL_LEVELS) {
            Map<String, Object> float32 =
                    RecallSweep.firstReaching(rows, r -> LUCENE_FLOAT.equals(r.get("index")), level);
            for (String index : INDEXES) {
                Map<String, Object> row = RecallSweep.firstReaching(rows, r -> index.equals(r.get("index")), level);
                Map<String, Object> out = new LinkedHashMap<>();
                out.put("recall_level", level);
                out.put("index", index);
                if (row != null) {
                    out.put("oversample_factor", row.get("oversample_factor"));
                    out.put(RecallSweep.RECALL, row.get(RecallSweep.RECALL));
                    out.put("cpu_us_per_query", row.get("cpu_us_per_query"));
                    out.put("speedup_vs_float32", RecallSweep.ratio(float32, row, "cpu_us_per_query"));
                }
                table.add(out);
            }
        }
        table.note("speedup_vs_float32: float32's CPU time per query at the level over the row's; empty where the"
                + " sweep never reached the level.");
        return table;
    }

    /** One index of the chunks, parents after their chunks in blocks, force-merged to one segment. */
    private record NestedIndex(
            Path path,
            Directory directory,
            DirectoryReader reader,
            IndexSearcher searcher,
            int[] parentOf,
            ParentJoin join)
            implements Closeable {

        static NestedIndex build(ChunkedCorpus corpus, KnnVectorsFormat format) throws IOException {
            Path path = Files.createTempDirectory("bench-nested-");
            Directory directory = FSDirectory.open(path);
            try (IndexWriter writer = new IndexWriter(
                    directory, new IndexWriterConfig().setCodec(TestUtil.alwaysKnnVectorsFormat(format)))) {
                for (int p = 0; p < corpus.parents(); p++) {
                    List<Document> block = new ArrayList<>();
                    for (float[] chunk : corpus.chunksOf(p)) {
                        Document child = new Document();
                        child.add(new KnnFloatVectorField(FIELD, chunk, VectorSimilarityFunction.DOT_PRODUCT));
                        block.add(child);
                    }
                    Document parent = new Document();
                    parent.add(new StringField("type", PARENT, Field.Store.NO));
                    parent.add(new StoredField(PARENT, p));
                    block.add(parent);
                    writer.addDocuments(block);
                }
                writer.forceMerge(1);
            }
            DirectoryReader reader = DirectoryReader.open(directory);
            IndexSearcher searcher = new IndexSearcher(reader);
            searcher.setQueryCache(null);
            BitSetProducer parents = new QueryBitSetProducer(new TermQuery(new Term("type", PARENT)));
            return new NestedIndex(
                    path,
                    directory,
                    reader,
                    searcher,
                    parentOfEveryDocument(reader, parents),
                    new ParentJoin(parents, false));
        }

        /**
         * The parent number of every document, from the parent that closes each block: only parents'
         * stored fields are read.
         */
        private static int[] parentOfEveryDocument(DirectoryReader reader, BitSetProducer parents) throws IOException {
            int[] parentOf = new int[reader.maxDoc()];
            StoredFields stored = reader.storedFields();
            BitSet isParent = parents.getBitSet(reader.leaves().get(0)); // force-merged: one segment
            int blockStart = 0;
            for (int doc = isParent.nextSetBit(0);
                    doc != DocIdSetIterator.NO_MORE_DOCS;
                    doc = doc + 1 < reader.maxDoc() ? isParent.nextSetBit(doc + 1) : DocIdSetIterator.NO_MORE_DOCS) {
                int parent = stored.document(doc, Set.of(PARENT))
                        .getField(PARENT)
                        .numericValue()
                        .intValue();
                Arrays.fill(parentOf, blockStart, doc + 1, parent);
                blockStart = doc + 1;
            }
            return parentOf;
        }

        ScoreDoc[] search(float[] query, float oversample, boolean rescore) throws IOException {
            return searcher.search(new RescoringKnnQuery(FIELD, query, K, oversample, null, rescore, join), K)
                    .scoreDocs;
        }

        double parentRecall(ScoreDoc[] hits, int[] truth) {
            Set<Integer> found = new HashSet<>();
            for (ScoreDoc hit : hits) {
                found.add(parentOf[hit.doc]);
            }
            return BenchData.recall(
                    truth, found.stream().mapToInt(Integer::intValue).toArray());
        }

        @Override
        public void close() throws IOException {
            IOUtils.close(reader, directory);
            IOUtils.rm(path);
        }
    }
}
