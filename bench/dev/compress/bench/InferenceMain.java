package dev.compress.bench;

import ai.djl.Device;
import dev.compress.training.engine.DjlRuntime;
import dev.compress.training.inference.DjlEncoder;
import dev.compress.training.inference.Encoder;
import dev.compress.training.inference.JavaEncoder;
import dev.compress.training.inference.VectorApiEncoder;
import dev.compress.training.model.LayerSpec;
import dev.compress.training.model.ModelArtifact;
import dev.compress.training.model.ModelMetadata;
import dev.compress.training.model.Tensor;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * Vectors per second of the three CPU inference paths (plain Java, Vector API, DJL forward) on two
 * adapter shapes, 384 -> 64 (one linear layer) and 384 -> 768 -> 64 (DIVE's MLP with batch norm), one
 * calling thread, a single vector per call (query time) and 64 per call (an ingest sub-batch). Rounds
 * of each configuration are interleaved and the median round is printed, so a load spike on a shared
 * machine hits every path alike. DJL runs libtorch with {@code -Dai.djl.pytorch.num_threads} intra-op
 * threads (default 1, the same CPU budget as the Java paths). Run (needs the incubator module):
 * <pre>
 * java --add-modules jdk.incubator.vector -cp target/test-classes:target/classes:$(cat target/test.classpath) \
 *   dev.compress.bench.InferenceMain [seconds per round = 1] [rounds = 5]
 * </pre>
 */
public final class InferenceMain {

    private InferenceMain() {}

    private record Config(String model, String path, Encoder encoder, float[][] batch) {}

    public static void main(String[] args) {
        double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 1;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        int djlThreads = Integer.getInteger("ai.djl.pytorch.num_threads", 1);
        DjlRuntime.configure(new DjlRuntime.Configuration(Path.of("target", "djl-cache"), djlThreads, 1));
        List<Config> configs = new ArrayList<>();
        for (int[] shape : new int[][] {{384, 64}, {384, 768, 64}}) {
            ModelArtifact model = randomModel(shape);
            String name = String.join(
                    "->", Arrays.stream(shape).mapToObj(Integer::toString).toList());
            for (int batch : new int[] {1, 64}) {
                float[][] input = gaussian(batch, shape[0], batch);
                configs.add(new Config(name, "java", new JavaEncoder(model, 64), input));
                configs.add(new Config(name, "vector_api", new VectorApiEncoder(model, 64), input));
                configs.add(new Config(
                        name,
                        "djl (" + djlThreads + " thread" + (djlThreads > 1 ? "s" : "") + ")",
                        new DjlEncoder(model, 64, Device.cpu()),
                        input));
            }
        }
        double[][] rates = new double[configs.size()][rounds];
        for (Config c : configs) {
            run(c, seconds); // warm-up
        }
        for (int r = 0; r < rounds; r++) {
            for (int i = 0; i < configs.size(); i++) {
                rates[i][r] = run(configs.get(i), seconds);
            }
        }
        System.out.printf(
                Locale.ROOT, "%-14s %-16s %6s %14s %14s%n", "model", "path", "batch", "vectors/s", "min..max");
        for (int i = 0; i < configs.size(); i++) {
            double[] sorted = rates[i].clone();
            Arrays.sort(sorted);
            Config c = configs.get(i);
            System.out.printf(
                    Locale.ROOT,
                    "%-14s %-16s %6d %,14.0f %,7.0f..%,.0f%n",
                    c.model(),
                    c.path(),
                    c.batch().length,
                    sorted[rounds / 2],
                    sorted[0],
                    sorted[rounds - 1]);
        }
        configs.forEach(c -> c.encoder().close());
    }

    private static double run(Config c, double seconds) {
        long start = System.nanoTime();
        long end = start + (long) (seconds * 1e9);
        long vectors = 0;
        while (System.nanoTime() < end) {
            c.encoder().encode(c.batch());
            vectors += c.batch().length;
        }
        return vectors / ((System.nanoTime() - start) / 1e9);
    }

    /** An L2-normalised adapter with random weights: linear layers, with batch norm + ReLU between them. */
    static ModelArtifact randomModel(int... dims) {
        Random rnd = new Random(42);
        List<LayerSpec> layers = new ArrayList<>();
        for (int l = 0; l + 1 < dims.length; l++) {
            if (l > 0) {
                layers.add(LayerSpec.batchNorm("bn" + l, dims[l], 1e-5));
                layers.add(LayerSpec.relu("relu" + l, dims[l]));
            }
            layers.add(LayerSpec.linear("fc" + l, dims[l], dims[l + 1]));
        }
        Map<String, Tensor> tensors = new LinkedHashMap<>();
        for (LayerSpec layer : layers) {
            layer.requiredTensors().forEach((name, shape) -> {
                float[] v = new float[Arrays.stream(shape).reduce(1, (a, b) -> a * b)];
                for (int i = 0; i < v.length; i++) {
                    v[i] = name.endsWith("running_var") ? 0.5f + rnd.nextFloat() : (float) rnd.nextGaussian() * 0.05f;
                }
                tensors.put(name, new Tensor(name, shape, v));
            });
        }
        ModelMetadata meta = new ModelMetadata(
                "bench",
                dims[0],
                List.of(dims[dims.length - 1]),
                ModelMetadata.OUTPUT_EMBEDDING,
                ModelMetadata.NORM_L2,
                1,
                layers,
                Map.of(),
                Map.of(),
                Map.of());
        return new ModelArtifact(meta, tensors);
    }

    private static float[][] gaussian(int rows, int dim, long seed) {
        Random rnd = new Random(seed);
        float[][] x = new float[rows][dim];
        for (float[] row : x) {
            for (int j = 0; j < dim; j++) {
                row[j] = (float) rnd.nextGaussian();
            }
        }
        return x;
    }
}
