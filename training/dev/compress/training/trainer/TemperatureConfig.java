package dev.compress.training.trainer;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Settings of {@link TemperatureTrainer} (Effective Post-Training Embedding Compression via Temperature Control in Contrastive Training).
 *
 * @param variant       {@link Variant#TEMP_AGG}, {@link Variant#TEMP_AGG_MRL} or {@link Variant#TEMP_SPEC_MRL}
 * @param temperatures  the aggregated temperatures (paper: 0.03, 0.06, 0.1)
 * @param recoveryWeight weight of an optional L1 recovery term toward the start, the PCA-rotated vectors (0 = the paper's loss)
 */
public record TemperatureConfig(
        List<Integer> dims,
        Variant variant,
        List<Double> temperatures,
        int hidden,
        double recoveryWeight,
        double learningRate,
        double weightDecay,
        int batchSize,
        int epochs,
        int patience,
        double hardNegativeFraction,
        int maxTripletsPerEpoch,
        long seed,
        String device)
        implements ResidualAdapterTraining.Settings {

    public enum Variant {
        /** InfoNCE summed over the temperatures, at the full dimension. */
        TEMP_AGG,
        /** InfoNCE summed over the temperatures and over the nested dims. */
        TEMP_AGG_MRL,
        /** InfoNCE over the nested dims, each dim with its own temperature. */
        TEMP_SPEC_MRL;

        public static Variant parse(String s) {
            return valueOf(s.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
        }
    }

    public TemperatureConfig {
        dims = dims.stream().sorted().toList();
        temperatures = List.copyOf(temperatures);
        if (dims.isEmpty() || temperatures.isEmpty() || batchSize < 2 || epochs < 0) {
            throw new IllegalArgumentException("need dims, temperatures, batchSize >= 2, epochs >= 0");
        }
    }

    public static TemperatureConfig defaults(List<Integer> dims) {
        return new TemperatureConfig(
                dims,
                Variant.TEMP_AGG_MRL,
                List.of(0.03, 0.06, 0.1),
                0,
                0.0,
                1e-3,
                0.01,
                128,
                30,
                8,
                0.5,
                0,
                0L,
                "auto");
    }

    public int hidden(int inputDim) {
        return hidden > 0 ? hidden : inputDim;
    }

    public TemperatureConfig withEpochs(int e) {
        return new TemperatureConfig(
                dims,
                variant,
                temperatures,
                hidden,
                recoveryWeight,
                learningRate,
                weightDecay,
                batchSize,
                e,
                patience,
                hardNegativeFraction,
                maxTripletsPerEpoch,
                seed,
                device);
    }

    public TemperatureConfig withDevice(String d) {
        return new TemperatureConfig(
                dims,
                variant,
                temperatures,
                hidden,
                recoveryWeight,
                learningRate,
                weightDecay,
                batchSize,
                epochs,
                patience,
                hardNegativeFraction,
                maxTripletsPerEpoch,
                seed,
                d);
    }

    public Map<String, Object> asMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("dims", dims);
        m.put("variant", variant.name());
        m.put("temperatures", temperatures);
        m.put("hidden", hidden);
        m.put("recoveryWeight", recoveryWeight);
        m.put("learningRate", learningRate);
        m.put("weightDecay", weightDecay);
        m.put("batchSize", batchSize);
        m.put("epochs", epochs);
        m.put("patience", patience);
        m.put("hardNegativeFraction", hardNegativeFraction);
        m.put("maxTripletsPerEpoch", maxTripletsPerEpoch);
        m.put("seed", seed);
        m.put("device", device);
        return m;
    }
}
