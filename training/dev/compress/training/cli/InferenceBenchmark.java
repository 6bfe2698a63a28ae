package dev.compress.training.cli;

import ai.djl.Device;
import dev.compress.training.engine.DjlRuntime;
import dev.compress.training.inference.DjlEncoder;
import dev.compress.training.inference.Encoder;
import dev.compress.training.inference.JavaEncoder;
import dev.compress.training.model.ModelArtifact;
import dev.compress.training.model.ModelFile;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Random;

/**
 * Throughput of the two CPU inference paths on a model file: {@code InferenceBenchmark model.bin
 * [batch=256] [seconds=5]}. Prints vectors/s for the plain-Java path (one thread) and the batched DJL
 * forward (libtorch's intra-op threads, {@code -Dai.djl.pytorch.num_threads}), after a warm-up.
 */
public final class InferenceBenchmark {

    private InferenceBenchmark() {}

    public static void main(String[] args) throws Exception {
        DjlRuntime.configure(new DjlRuntime.Configuration(Path.of("target", "djl-cache"),
            Integer.getInteger("ai.djl.pytorch.num_threads", Runtime.getRuntime().availableProcessors()), 1));
        ModelArtifact model = ModelFile.read(Path.of(args[0]));
        int batch = args.length > 1 ? Integer.parseInt(args[1]) : 256;
        double seconds = args.length > 2 ? Double.parseDouble(args[2]) : 5;
        int dim = model.metadata().maxOutputDim();
        float[][] input = new float[batch][model.metadata().inputDim()];
        Random rnd = new Random(0);
        for (float[] row : input) {
            for (int j = 0; j < row.length; j++) {
                row[j] = (float) rnd.nextGaussian();
            }
        }
        long params = model.tensors().values().stream().mapToLong(t -> t.data().length).sum();
        System.out.printf(Locale.ROOT, "model %s: %d -> %d, %,d parameters, batch %d%n", model.metadata().method(),
            model.metadata().inputDim(), dim, params, batch);
        try (Encoder java = new JavaEncoder(model, dim); Encoder djl = new DjlEncoder(model, dim, Device.cpu())) {
            report("java (1 thread)", java, input, seconds);
            report("djl forward", djl, input, seconds);
        }
    }

    private static void report(String name, Encoder encoder, float[][] input, double seconds) {
        run(encoder, input, seconds / 3);
        double rate = run(encoder, input, seconds);
        System.out.printf(Locale.ROOT, "%-18s %,10.0f vectors/s%n", name, rate);
    }

    private static double run(Encoder encoder, float[][] input, double seconds) {
        long start = System.nanoTime();
        long end = start + (long) (seconds * 1e9);
        long vectors = 0;
        while (System.nanoTime() < end) {
            encoder.encode(input);
            vectors += input.length;
        }
        return vectors / ((System.nanoTime() - start) / 1e9);
    }
}
