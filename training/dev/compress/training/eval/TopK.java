package dev.compress.training.eval;

import java.util.List;

/**
 * Keeps the k best (highest score) rows seen so far in a bounded min-heap. Rows of equal score rank by
 * their ids in reverse string order when the heap has the rows' ids, as trec_eval ranks documents,
 * else by the lower row number, so results are deterministic whatever the visiting order (and block
 * order) is. Each kept row may carry a payload, e.g. its float score while the heap ranks by Hamming
 * distance.
 */
final class TopK {

    private final int k;
    private final List<String> ids;
    private final float[] scores;
    private final int[] rows;
    private final float[] payloads;
    private int size;

    /** @param ids the ids of the rows, which rank rows of equal score (null: the row numbers do) */
    TopK(int k, List<String> ids) {
        this.k = k;
        this.ids = ids;
        this.scores = new float[k];
        this.rows = new int[k];
        this.payloads = new float[k];
    }

    static TopK[] array(int n, int k) {
        return array(n, k, null);
    }

    static TopK[] array(int n, int k, List<String> ids) {
        TopK[] heaps = new TopK[n];
        for (int i = 0; i < n; i++) {
            heaps[i] = new TopK(k, ids);
        }
        return heaps;
    }

    static int[][] sortedRows(TopK[] heaps) {
        int[][] out = new int[heaps.length][];
        for (int i = 0; i < heaps.length; i++) {
            out[i] = heaps[i].sortedRows();
        }
        return out;
    }

    void offer(float score, int row) {
        offer(score, row, 0f);
    }

    /** Whether {@link #offer} would keep this row, so a costly payload is computed only then. */
    boolean keeps(float score, int row) {
        return size < k || better(score, row, scores[0], rows[0]);
    }

    void offer(float score, int row, float payload) {
        if (size < k) {
            scores[size] = score;
            rows[size] = row;
            payloads[size] = payload;
            siftUp(size++);
        } else if (better(score, row, scores[0], rows[0])) {
            scores[0] = score;
            rows[0] = row;
            payloads[0] = payload;
            siftDown(0);
        }
    }

    int size() {
        return size;
    }

    /** Row of the i-th kept entry (heap order, not ranked). */
    int row(int i) {
        return rows[i];
    }

    float payload(int i) {
        return payloads[i];
    }

    /** The kept rows, best first. */
    int[] sortedRows() {
        Integer[] order = new Integer[size];
        for (int i = 0; i < size; i++) {
            order[i] = i;
        }
        java.util.Arrays.sort(order, (a, b) -> better(scores[a], rows[a], scores[b], rows[b]) ? -1 : 1);
        int[] out = new int[size];
        for (int i = 0; i < size; i++) {
            out[i] = rows[order[i]];
        }
        return out;
    }

    private boolean better(float s1, int r1, float s2, int r2) {
        return s1 > s2 || (s1 == s2 && firstOfEqual(r1, r2));
    }

    private boolean firstOfEqual(int r1, int r2) {
        int byId = ids == null ? 0 : ids.get(r1).compareTo(ids.get(r2));
        return byId != 0 ? byId > 0 : r1 < r2;
    }

    private void siftUp(int i) {
        while (i > 0) {
            int parent = (i - 1) / 2;
            if (better(scores[parent], rows[parent], scores[i], rows[i])) {
                swap(i, parent);
                i = parent;
            } else {
                return;
            }
        }
    }

    private void siftDown(int i) {
        while (true) {
            int l = 2 * i + 1;
            int r = l + 1;
            int worst = i;
            if (l < size && better(scores[worst], rows[worst], scores[l], rows[l])) {
                worst = l;
            }
            if (r < size && better(scores[worst], rows[worst], scores[r], rows[r])) {
                worst = r;
            }
            if (worst == i) {
                return;
            }
            swap(i, worst);
            i = worst;
        }
    }

    private void swap(int a, int b) {
        float s = scores[a];
        scores[a] = scores[b];
        scores[b] = s;
        int r = rows[a];
        rows[a] = rows[b];
        rows[b] = r;
        float p = payloads[a];
        payloads[a] = payloads[b];
        payloads[b] = p;
    }
}
