package dev.compress.training.engine;

import java.util.List;

/**
 * What the training engine reports about itself: whether it loaded, which engine and version,
 * the devices it sees, where its native library lives, and why it failed (or a note) otherwise.
 */
public record EngineStatus(
        boolean loaded,
        String engine,
        String version,
        int gpuCount,
        List<String> devices,
        String cacheDir,
        String error) {
    static EngineStatus failed(String engine, String cacheDir, String reason) {
        return new EngineStatus(false, engine, null, 0, List.of(), cacheDir, reason);
    }
}
