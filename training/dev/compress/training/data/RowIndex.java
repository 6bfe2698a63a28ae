package dev.compress.training.data;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Row of each id (the first row when an id repeats), built on first use. */
final class RowIndex {

    private final List<String> ids;
    private Map<String, Integer> rows;

    RowIndex(List<String> ids) {
        this.ids = ids;
    }

    synchronized int rowOf(String id) {
        if (rows == null) {
            Map<String, Integer> m = new HashMap<>(ids.size() * 2);
            for (int i = 0; i < ids.size(); i++) {
                m.putIfAbsent(ids.get(i), i);
            }
            rows = m;
        }
        return rows.getOrDefault(id, -1);
    }
}
