package dev.compress.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One table of benchmark results: rows of named values, written as JSON (every value) and as a
 * Markdown table (the listed columns, numbers rounded for reading).
 */
public final class ResultTable {

    private final String title;
    private final List<String> columns;
    private final List<Map<String, Object>> rows = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();

    public ResultTable(String title, List<String> columns) {
        this.title = title;
        this.columns = List.copyOf(columns);
    }

    public ResultTable add(Map<String, Object> row) {
        rows.add(new LinkedHashMap<>(row));
        return this;
    }

    public ResultTable note(String note) {
        notes.add(note);
        return this;
    }

    public List<Map<String, Object>> rows() {
        return rows;
    }

    public String title() {
        return title;
    }

    /** Everything, for the JSON file. */
    public Map<String, Object> toJson() {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("title", title);
        json.put("columns", columns);
        json.put("rows", rows);
        json.put("notes", notes);
        return json;
    }

    public String markdown() {
        return markdown(4);
    }

    /** The table under a heading of the given level (the number of {@code #}). */
    public String markdown(int headingLevel) {
        StringBuilder out = new StringBuilder("#".repeat(headingLevel))
                .append(' ')
                .append(title)
                .append("\n\n");
        out.append("| ").append(String.join(" | ", columns)).append(" |\n");
        out.append("|").append(" --- |".repeat(columns.size())).append('\n');
        for (Map<String, Object> row : rows) {
            out.append('|');
            for (String column : columns) {
                out.append(' ').append(format(row.get(column))).append(" |");
            }
            out.append('\n');
        }
        for (String note : notes) {
            out.append('\n').append(note).append('\n');
        }
        return out.append('\n').toString();
    }

    /** Integers as they are, large numbers with thousands separators, small ones to 3 or 4 digits. */
    static String format(Object value) {
        if (value == null) {
            return "";
        }
        if (value instanceof Double || value instanceof Float) {
            double v = ((Number) value).doubleValue();
            if (Double.isNaN(v)) {
                return "";
            }
            double abs = Math.abs(v);
            if (abs >= 1000) {
                return String.format(Locale.ROOT, "%,.0f", v);
            }
            if (abs >= 100) {
                return String.format(Locale.ROOT, "%.1f", v);
            }
            if (abs >= 1) {
                return String.format(Locale.ROOT, "%.3f", v);
            }
            return String.format(Locale.ROOT, "%.4f", v);
        }
        if (value instanceof Long || value instanceof Integer) {
            return String.format(Locale.ROOT, "%,d", ((Number) value).longValue());
        }
        return value.toString();
    }
}
