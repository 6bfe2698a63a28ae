package dev.compress.training.sampling;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Values computed from one {@link TrainingData} at most once, each under its own type, for the parts
 * of a job that need the same costly value: the corpus PCA, which an adapter starts from and the
 * held-out report compares with, costs minutes at thousands of dimensions.
 */
public final class ComputedOnce {

    private final Map<Class<?>, Object> values = new ConcurrentHashMap<>();

    /** The value of type {@code type}, computed by {@code compute} on the first call. */
    public <T> T get(Class<T> type, Supplier<T> compute) {
        return type.cast(values.computeIfAbsent(type, key -> compute.get()));
    }
}
