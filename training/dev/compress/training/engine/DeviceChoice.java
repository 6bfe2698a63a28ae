package dev.compress.training.engine;

import ai.djl.Device;
import ai.djl.engine.Engine;
import java.util.Locale;

/**
 * The device a job asks for: {@code auto} takes the first GPU when DJL's engine reports one
 * ({@link Engine#getGpuCount()} > 0, i.e. a CUDA libtorch matching the JNI was found), else the CPU;
 * {@code gpu} insists on one and fails clearly when there is none; {@code cpu} is the CPU.
 */
public enum DeviceChoice {
    AUTO,
    CPU,
    GPU;

    public static DeviceChoice parse(String value) {
        try {
            return valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("device must be auto, cpu or gpu, got '" + value + "'");
        }
    }

    public Device resolve() {
        return resolve(DjlRuntime.status().gpuCount());
    }

    /** Resolution for a given GPU count (separate so it is testable without a GPU). */
    public Device resolve(int gpuCount) {
        return switch (this) {
            case CPU -> Device.cpu();
            case GPU -> {
                if (gpuCount == 0) {
                    throw new IllegalStateException("device 'gpu' requested but the engine sees no GPU "
                            + "(no CUDA libtorch matching DJL's PyTorch JNI is available)");
                }
                yield Device.gpu(0);
            }
            case AUTO -> gpuCount > 0 ? Device.gpu(0) : Device.cpu();
        };
    }
}
