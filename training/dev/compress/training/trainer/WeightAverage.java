package dev.compress.training.trainer;

import ai.djl.ndarray.NDArray;
import dev.compress.training.inference.DjlLayers;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An exponential moving average of a {@link LayerNetwork}'s trainable weights (Polyak averaging), updated after
 * every optimiser step: {@code avg = decay * avg + (1 - decay) * w}, starting from the network's start weights.
 * Validation and the shipped model use the average, so the epoch chosen is not the one whose weights happened to
 * sit on a favourable step of a noisy trajectory; training itself is unchanged.
 *
 * <p>{@code decay = 1 - 1 / horizon}: the average's memory is about {@code horizon} steps.
 */
final class WeightAverage {

    private final LayerNetwork net;
    private final float decay;
    private final Map<String, NDArray> averaged = new LinkedHashMap<>();
    private final Map<String, NDArray> params = new LinkedHashMap<>();

    WeightAverage(LayerNetwork net, int horizon) {
        if (horizon < 1) {
            throw new IllegalArgumentException("horizon must be >= 1, got " + horizon);
        }
        this.net = net;
        this.decay = 1f - 1f / horizon;
        params.putAll(net.parameters());
        for (Map.Entry<String, NDArray> e : net.trainable().entrySet()) {
            NDArray w = e.getValue();
            NDArray copy = w.getManager().create(w.toFloatArray(), w.getShape());
            averaged.put(e.getKey(), copy);
            params.put(e.getKey(), copy);
        }
    }

    /**
     * A horizon of half an epoch of {@code items} in batches of {@code batch}: long enough to smooth step noise,
     * short enough that the average follows the trend from one epoch's validation to the next.
     */
    static int halfEpoch(int items, int batch) {
        return Math.max(1, (items + batch - 1) / batch / 2);
    }

    /** Folds the network's current weights into the average; call after each optimiser update. */
    void update() {
        for (Map.Entry<String, NDArray> e : averaged.entrySet()) {
            NDArray scaled = net.trainable().get(e.getKey()).mul(1f - decay);
            e.getValue().muli(decay).addi(scaled);
            scaled.close();
        }
    }

    /** The network's computation with the averaged weights. */
    NDArray forward(NDArray x) {
        return DjlLayers.forward(net.layers(), params, x);
    }

    /** The averaged weights (and the network's frozen ones), as {@link LayerNetwork#snapshot} gives them. */
    Map<String, float[]> snapshot() {
        Map<String, float[]> s = new LinkedHashMap<>();
        params.forEach((k, v) -> s.put(k, v.toFloatArray()));
        return s;
    }
}
