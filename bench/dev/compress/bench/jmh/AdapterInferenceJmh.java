package dev.compress.bench.jmh;

import ai.djl.Device;
import dev.compress.training.inference.DjlEncoder;
import dev.compress.training.inference.Encoder;
import dev.compress.training.inference.JavaEncoder;
import dev.compress.training.inference.VectorApiEncoder;
import dev.compress.training.model.ModelArtifact;
import dev.compress.training.model.ModelFileTests;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Adapter inference on the CPU, one thread calling: the plain-Java encoder, the Vector API encoder
 * (what ingest and query use) and DJL's batched forward pass, on a 384 -> 1024 -> 64 MLP of the model file format (about 460k parameters, the
 * size of the ingest benchmark's model), batches of {@value #BATCH} rows (the ingest processor's
 * default) and single rows (a query). One operation = one vector.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class AdapterInferenceJmh {

    public static final int BATCH = 64;

    @Param({"java", "vector_api", "djl"})
    public String encoder;

    private Encoder model;
    private float[][] batch;
    private float[][] single;

    @Setup(Level.Trial)
    public void load() {
        ModelArtifact artifact = ModelFileTests.sampleModel(1, 384, 1024, 64);
        int out = artifact.metadata().maxOutputDim();
        model = switch (encoder) {
            case "java" -> new JavaEncoder(artifact, out);
            case "vector_api" -> new VectorApiEncoder(artifact, out);
            default -> new DjlEncoder(artifact, out, Device.cpu());
        };
        Random random = new Random(5);
        batch = new float[BATCH][384];
        for (float[] row : batch) {
            for (int i = 0; i < row.length; i++) {
                row[i] = (float) random.nextGaussian() * 0.05f;
            }
        }
        single = new float[][] {batch[0]};
    }

    @TearDown(Level.Trial)
    public void close() throws Exception {
        model.close();
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public float[][] batchOf64() {
        return model.encode(batch);
    }

    @Benchmark
    public float[][] oneQuery() {
        return model.encode(single);
    }
}
