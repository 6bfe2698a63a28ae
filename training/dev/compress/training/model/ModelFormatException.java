package dev.compress.training.model;

/** A model file that cannot be used: wrong magic or version, bad checksum, truncated, or inconsistent shapes. */
public class ModelFormatException extends RuntimeException {
    public ModelFormatException(String message) {
        super(message);
    }

    public ModelFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
