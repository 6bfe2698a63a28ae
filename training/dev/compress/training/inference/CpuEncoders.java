package dev.compress.training.inference;

import dev.compress.training.model.ModelArtifact;

/**
 * The encoder for serving (ingest and query) on a node's CPU, chosen by measurement (docs/benchmarks.md,
 * "CPU inference"): {@link VectorApiEncoder} when the JVM has {@code jdk.incubator.vector} (OpenSearch's
 * jvm.options adds it), else the portable {@link JavaEncoder}. Both run inside the caller's thread, so a
 * search or bulk thread never waits on a native thread pool.
 */
public final class CpuEncoders {

    private static final boolean VECTOR_API =
            ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent();

    private CpuEncoders() {}

    /** Whether this JVM resolved the Vector API module (started with {@code --add-modules jdk.incubator.vector}). */
    public static boolean vectorApiAvailable() {
        return VECTOR_API;
    }

    /** The fastest Java encoder this JVM can run, for {@code outputDim} of {@code model}. */
    public static Encoder forServing(ModelArtifact model, int outputDim) {
        return VECTOR_API ? new VectorApiEncoder(model, outputDim) : new JavaEncoder(model, outputDim);
    }
}
