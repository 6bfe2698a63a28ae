package dev.compress.demo;

import dev.compress.training.data.DataDirectory;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The main job's command line: {@code demo [--dataset scifact|nfcorpus] [--model ...] [--method ...]
 * [--dims N] [--param name=value]... [--data DIR] [--out DIR] [--heap SIZE]}.
 *
 * @param parameters {@code _train} parameters given with {@code --param}; they override the data set's defaults
 * @param build      where the build left the distribution, plugin zip and test classes ({@code target/})
 */
public record DemoOptions(
        DemoDataset dataset,
        String model,
        String method,
        int dims,
        Map<String, String> parameters,
        Path dataDir,
        Path outDir,
        Path build,
        String heap) {

    public static final List<String> MODELS = List.of("bge-small-en-v1.5", "all-MiniLM-L6-v2");

    static final String USAGE = String.join(
            "\n",
            "usage: ./compress demo [options]",
            "  --dataset scifact|nfcorpus     BEIR data set (default scifact)",
            "  --model bge-small-en-v1.5|all-MiniLM-L6-v2   which precomputed vectors (default bge-small-en-v1.5)",
            "  --method NAME                  _train method: dive (default), matryoshka_adaptor, search_adaptor, smec,",
            "                                 temperature_mrl, pca, truncation",
            "  --dims N                       target dimension (default 64)",
            "  --param NAME=VALUE             a _train parameter, e.g. --param epochs=20 (repeatable)",
            "  --data DIR                     data directory with beir/ and embeddings/ (default: COMPRESS_DATA_DIR, else ../shared/data)",
            "  --out DIR                      where the report goes (default target/demo)",
            "  --heap SIZE                    the node's heap (default 2g)");

    public static DemoOptions parse(List<String> args, Path build) {
        DemoDataset dataset = DemoDataset.named("scifact");
        String model = MODELS.get(0);
        String method = "dive";
        int dims = 64;
        Map<String, String> parameters = new LinkedHashMap<>();
        Path dataDir = DataDirectory.resolve();
        Path outDir = build.resolve("demo");
        String heap = "2g";
        for (int i = 0; i < args.size(); i++) {
            String flag = args.get(i);
            if (flag.equals("--help") || flag.equals("-h")) {
                throw new UsageException("");
            }
            if (i + 1 >= args.size()) {
                throw new UsageException("option [" + flag + "] needs a value");
            }
            String value = args.get(++i);
            switch (flag) {
                case "--dataset" -> dataset = DemoDataset.named(value);
                case "--model" -> {
                    if (MODELS.contains(value) == false) {
                        throw new UsageException("[--model] must be one of " + MODELS + ", got [" + value + "]");
                    }
                    model = value;
                }
                case "--method" -> method = value;
                case "--dims" -> dims = positive(flag, value);
                case "--param" -> {
                    int eq = value.indexOf('=');
                    if (eq <= 0) {
                        throw new UsageException("[--param] must look like name=value, got [" + value + "]");
                    }
                    parameters.put(value.substring(0, eq), value.substring(eq + 1));
                }
                case "--data" -> dataDir = Path.of(value);
                case "--out" -> outDir = Path.of(value);
                case "--heap" -> {
                    if (value.matches("\\d+[mg]") == false) {
                        throw new UsageException("[--heap] must look like 768m or 2g, got [" + value + "]");
                    }
                    heap = value;
                }
                default -> throw new UsageException("unknown option [" + flag + "]");
            }
        }
        return new DemoOptions(dataset, model, method, dims, Map.copyOf(parameters), dataDir, outDir, build, heap);
    }

    private static int positive(String flag, String value) {
        try {
            int n = Integer.parseInt(value);
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new UsageException("[" + flag + "] must be a positive integer, got [" + value + "]");
    }

    /** The {@code _train} parameters: the data set's defaults for the method, overridden by {@code --param}. */
    public Map<String, String> trainParameters() {
        Map<String, String> all = new LinkedHashMap<>(dataset.trainingDefaults(method));
        all.putAll(parameters);
        return all;
    }

    /** A bad command line; the message names the option and value. */
    public static final class UsageException extends IllegalArgumentException {
        public UsageException(String message) {
            super(message);
        }
    }
}
