package dev.compress.bench;

import dev.compress.codec.binary.BinarizedVectorValues;
import dev.compress.codec.binary.CodeWords;
import dev.compress.codec.binary.SignBinarizer;
import dev.compress.codec.binary.SignCodeEstimator;
import java.io.IOException;
import java.util.Arrays;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.util.hnsw.HnswGraph;

/**
 * A plain HNSW beam search of our own with the search's estimate, primitive heaps and a reused
 * visited array, on one of two sources:
 *
 * <ul>
 *   <li>{@link #fixedWidthCopy}: our index's bottom-level graph and codes copied into fixed-width
 *       heap arrays (each node's neighbours in {@value #MAX_CONN} int slots; each code with its
 *       corrections in one record of whole cache lines, one line at 384-d). Nothing is decoded and
 *       no call is virtual: what a graph format and searcher of our own could at best do, since a
 *       format would read that layout from a memory-mapped file.
 *   <li>{@link #inPlace}: the index's own files, Lucene's graph read through its reader and the codes
 *       read in place a batch at a time ({@link BinarizedVectorValues#readRecords}), as our search
 *       reads them: what a searcher of our own would do on the format as it is.
 * </ul>
 *
 * The upper levels are few nodes and are walked greedily through Lucene's graph.
 */
final class PlainHnswWalk {

    /** Bottom-level neighbours per node: Lucene's default {@code 2 * M} for M = 16. */
    static final int MAX_CONN = 32;

    /**
     * G1 places arrays this large at the start of a region, after a 16-byte header; starting the
     * data 48 bytes in puts every record (and every 128-byte neighbour list) on cache-line
     * boundaries.
     */
    private static final int RECORD_BASE = 48 / Long.BYTES;

    private static final int NEIGHBOUR_BASE = 48 / Integer.BYTES;
    private static final int LONGS_PER_LINE = 64 / Long.BYTES;

    private final HnswGraph graph;
    /** The codes read in place; null when walking the fixed-width copy. */
    private final BinarizedVectorValues inPlaceCodes;

    private final int words;
    private final int stride;
    private final long[] records;
    private final int[] neighbours;

    private final int[] visited;
    private int epoch;
    private final int[] batch = new int[MAX_CONN];
    private final float[] corrections = new float[SignBinarizer.CORRECTIONS];
    private long[] candidates = new long[1024];
    private int candidateCount;
    private long[] results = new long[1024];
    private int resultCount;
    private long visits;
    private long touchedSink;

    private long[] batchWords = new long[0];
    private float[] batchCorrections = new float[0];

    private PlainHnswWalk(HnswGraph graph, BinarizedVectorValues codes, boolean copy) throws IOException {
        int size = codes.size();
        this.graph = graph;
        this.inPlaceCodes = copy ? null : codes;
        this.words = CodeWords.words(codes.dimension());
        this.visited = new int[size];
        if (copy == false) {
            this.stride = 0;
            this.records = null;
            this.neighbours = null;
            return;
        }
        // the code's words, then the corrections' float bits two to a word, padded to whole cache lines
        this.stride = (words + (SignBinarizer.CORRECTIONS + 1) / 2 + LONGS_PER_LINE - 1) & -LONGS_PER_LINE;
        this.records = new long[RECORD_BASE + size * stride];
        this.neighbours = new int[NEIGHBOUR_BASE + size * MAX_CONN];
        Arrays.fill(neighbours, -1);
        for (int ord = 0; ord < size; ord++) {
            int record = RECORD_BASE + ord * stride;
            System.arraycopy(codes.codeWords(ord), 0, records, record, words);
            float[] stored = codes.corrections(ord);
            for (int c = 0; c < stored.length; c++) {
                records[record + words + c / 2] |= (Float.floatToRawIntBits(stored[c]) & 0xFFFFFFFFL) << (32 * (c % 2));
            }
            graph.seek(0, ord);
            int slot = NEIGHBOUR_BASE + ord * MAX_CONN;
            for (int n = graph.nextNeighbor(); n != DocIdSetIterator.NO_MORE_DOCS; n = graph.nextNeighbor()) {
                if (slot == NEIGHBOUR_BASE + (ord + 1) * MAX_CONN) {
                    throw new IllegalStateException("node " + ord + " has more than " + MAX_CONN + " neighbours");
                }
                neighbours[slot++] = n;
            }
        }
    }

    /** Copies the bottom level of {@code graph} and every record of {@code codes}. */
    static PlainHnswWalk fixedWidthCopy(HnswGraph graph, BinarizedVectorValues codes) throws IOException {
        return new PlainHnswWalk(graph, codes, true);
    }

    /** Walks {@code graph} and {@code codes} where they are, in the index's files. */
    static PlainHnswWalk inPlace(HnswGraph graph, BinarizedVectorValues codes) throws IOException {
        return new PlainHnswWalk(graph, codes, false);
    }

    /** Nodes scored by the last {@link #search}. */
    long visits() {
        return visits;
    }

    /** The {@code beam} best nodes by {@code query}'s estimate, in no order. */
    int[] search(SignCodeEstimator query, int beam) throws IOException {
        visits = 0;
        int entry = graph.entryNode();
        float entryScore = score(query, entry);
        for (int level = graph.numLevels() - 1; level > 0; level--) {
            for (boolean moved = true; moved; ) {
                moved = false;
                graph.seek(level, entry);
                for (int n = graph.nextNeighbor(); n != DocIdSetIterator.NO_MORE_DOCS; n = graph.nextNeighbor()) {
                    float score = score(query, n);
                    if (score > entryScore) {
                        entryScore = score;
                        entry = n;
                        moved = true;
                    }
                }
            }
        }
        if (++epoch == 0) {
            Arrays.fill(visited, 0);
            epoch = 1;
        }
        visited[entry] = epoch;
        candidateCount = 0;
        resultCount = 0;
        long first = encode(entryScore, entry);
        pushCandidate(first);
        pushResult(first);
        while (candidateCount > 0 && (resultCount < beam || candidates[0] > results[0])) {
            int node = (int) popCandidate();
            int unvisited = inPlaceCodes == null ? copiedNeighbours(node) : graphNeighbours(node);
            if (inPlaceCodes == null) {
                touchRecords(unvisited);
            } else {
                readRecords(unvisited);
            }
            for (int i = 0; i < unvisited; i++) {
                float score = inPlaceCodes == null ? score(query, batch[i]) : batchScore(query, i);
                offer(encode(score, batch[i]), beam);
            }
        }
        int[] nodes = new int[resultCount];
        for (int i = 0; i < resultCount; i++) {
            nodes[i] = (int) results[i];
        }
        return nodes;
    }

    /** Puts {@code node}'s unvisited neighbours in the copy into {@link #batch}, marking them; returns their count. */
    private int copiedNeighbours(int node) {
        int unvisited = 0;
        for (int slot = NEIGHBOUR_BASE + node * MAX_CONN, end = slot + MAX_CONN;
                slot < end && neighbours[slot] >= 0;
                slot++) {
            unvisited = mark(neighbours[slot], unvisited);
        }
        return unvisited;
    }

    /** Puts {@code node}'s unvisited neighbours in the index's graph into {@link #batch}, marking them. */
    private int graphNeighbours(int node) throws IOException {
        int unvisited = 0;
        graph.seek(0, node);
        for (int n = graph.nextNeighbor(); n != DocIdSetIterator.NO_MORE_DOCS; n = graph.nextNeighbor()) {
            unvisited = mark(n, unvisited);
        }
        return unvisited;
    }

    /** Appends {@code n} to the batch if not visited yet, without a branch, and marks it visited. */
    private int mark(int n, int unvisited) {
        batch[unvisited] = n;
        unvisited += visited[n] != epoch ? 1 : 0;
        visited[n] = epoch;
        return unvisited;
    }

    /** Loads every cache line of the batch's copied records before any is scored, so that their misses overlap. */
    private void touchRecords(int unvisited) {
        long touched = 0;
        for (int i = 0; i < unvisited; i++) {
            for (int line = RECORD_BASE + batch[i] * stride, end = line + stride; line < end; line += LONGS_PER_LINE) {
                touched += records[line];
            }
        }
        touchedSink = touched; // a field store keeps the loads from being optimised away
    }

    /** Reads the batch's records from the codes' file as our search does. */
    private void readRecords(int unvisited) throws IOException {
        if (batchWords.length < unvisited * words) {
            batchWords = new long[MAX_CONN * words];
            batchCorrections = new float[MAX_CONN * SignBinarizer.CORRECTIONS];
        }
        inPlaceCodes.readRecords(batch, unvisited, batchWords, batchCorrections);
    }

    /** The score of the batch's {@code i}-th record, read by {@link #readRecords}. */
    private float batchScore(SignCodeEstimator query, int i) {
        visits++;
        System.arraycopy(batchCorrections, i * SignBinarizer.CORRECTIONS, corrections, 0, corrections.length);
        return query.score(query.quantizedSignDot(batchWords, i * words), corrections);
    }

    /** Puts a scored node among the results and candidates when it makes the beam. */
    private void offer(long scored, int beam) {
        if (resultCount < beam) {
            pushResult(scored);
            pushCandidate(scored);
        } else if (scored > results[0]) {
            replaceWorstResult(scored);
            pushCandidate(scored);
        }
    }

    private float score(SignCodeEstimator query, int node) throws IOException {
        visits++;
        if (inPlaceCodes != null) {
            System.arraycopy(inPlaceCodes.corrections(node), 0, corrections, 0, corrections.length);
            return query.score(query.quantizedSignDot(inPlaceCodes.codeWords(node)), corrections);
        }
        int record = RECORD_BASE + node * stride;
        for (int c = 0; c < corrections.length; c++) {
            corrections[c] = Float.intBitsToFloat((int) (records[record + words + c / 2] >>> (32 * (c % 2))));
        }
        return query.score(query.quantizedSignDot(records, record), corrections);
    }

    /** Score and node in one long that orders as the score does (ties by node). */
    private static long encode(float score, int node) {
        int bits = Float.floatToIntBits(score);
        bits ^= (bits >> 31) & 0x7FFFFFFF;
        return ((long) bits << 32) | node;
    }

    /** Candidates: a max-heap. */
    private void pushCandidate(long value) {
        if (candidateCount == candidates.length) {
            candidates = Arrays.copyOf(candidates, 2 * candidateCount);
        }
        int i = candidateCount++;
        for (int parent; i > 0 && candidates[parent = (i - 1) >>> 1] < value; i = parent) {
            candidates[i] = candidates[parent];
        }
        candidates[i] = value;
    }

    private long popCandidate() {
        long top = candidates[0];
        long last = candidates[--candidateCount];
        int i = 0;
        for (int child; (child = 2 * i + 1) < candidateCount; i = child) {
            if (child + 1 < candidateCount && candidates[child + 1] > candidates[child]) {
                child++;
            }
            if (candidates[child] <= last) {
                break;
            }
            candidates[i] = candidates[child];
        }
        candidates[i] = last;
        return top;
    }

    /** Results: a min-heap of at most the beam. */
    private void pushResult(long value) {
        if (resultCount == results.length) {
            results = Arrays.copyOf(results, 2 * resultCount);
        }
        int i = resultCount++;
        for (int parent; i > 0 && results[parent = (i - 1) >>> 1] > value; i = parent) {
            results[i] = results[parent];
        }
        results[i] = value;
    }

    private void replaceWorstResult(long value) {
        int i = 0;
        for (int child; (child = 2 * i + 1) < resultCount; i = child) {
            if (child + 1 < resultCount && results[child + 1] < results[child]) {
                child++;
            }
            if (results[child] >= value) {
                break;
            }
            results[i] = results[child];
        }
        results[i] = value;
    }
}
