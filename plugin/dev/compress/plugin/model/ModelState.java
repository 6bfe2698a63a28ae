package dev.compress.plugin.model;

import java.util.Locale;

/** Life of a model: {@code training} until its job ends, then {@code created} or {@code failed}. */
public enum ModelState {
    TRAINING,
    CREATED,
    FAILED;

    public String jsonName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static ModelState fromJson(String value) {
        return valueOf(value.toUpperCase(Locale.ROOT));
    }
}
