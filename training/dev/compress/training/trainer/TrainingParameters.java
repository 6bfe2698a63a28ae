package dev.compress.training.trainer;

import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A method's hyperparameters as a user sent them (JSON object), read with ranges. Every error names
 * the parameter as {@code parameters.<name>} and the offending value; names nobody read are errors
 * too, so a typo never silently falls back to a default.
 */
public final class TrainingParameters {

    private final Map<String, Object> values;
    private final Set<String> read = new TreeSet<>();

    public TrainingParameters(Map<String, Object> values) {
        this.values = values == null ? Map.of() : values;
    }

    public double real(String name, double defaultValue, double min, double max) {
        return number(name, defaultValue, min, max, String.valueOf(min), String.valueOf(max));
    }

    public int integer(String name, int defaultValue, int min, int max) {
        double d = number(name, defaultValue, min, max, Integer.toString(min), Integer.toString(max));
        if (d != Math.rint(d)) {
            throw new IllegalArgumentException(
                    "[parameters." + name + "] must be a whole number, got [" + values.get(name) + "]");
        }
        return (int) d;
    }

    /** A number in [min, max], its bounds shown as {@code shownMin} and {@code shownMax}. */
    private double number(String name, double defaultValue, double min, double max, String shownMin, String shownMax) {
        read.add(name);
        Object v = values.get(name);
        if (v == null) {
            return defaultValue;
        }
        if (v instanceof Number == false) {
            // a string named as one, so that "5" does not read as the number it holds
            throw new IllegalArgumentException("[parameters." + name + "] must be a number, got "
                    + (v instanceof String ? "the string [" + v + "]" : "[" + v + "]"));
        }
        double d = ((Number) v).doubleValue();
        if (!(d >= min && d <= max)) {
            throw new IllegalArgumentException(String.format(
                    Locale.ROOT, "[parameters.%s] must be in [%s, %s], got [%s]", name, shownMin, shownMax, v));
        }
        return d;
    }

    public String choice(String name, String defaultValue, Set<String> allowed) {
        read.add(name);
        Object v = values.get(name);
        if (v == null) {
            return defaultValue;
        }
        if (allowed.contains(String.valueOf(v)) == false) {
            throw new IllegalArgumentException(
                    "[parameters." + name + "] must be one of " + new TreeSet<>(allowed) + ", got [" + v + "]");
        }
        return String.valueOf(v);
    }

    /** Fails on any parameter the method did not read. */
    public void rejectUnknown(String method) {
        for (String name : values.keySet()) {
            if (read.contains(name) == false) {
                throw new IllegalArgumentException(
                        "[parameters." + name + "] is not a parameter of method [" + method + "]; it has " + read);
            }
        }
    }
}
