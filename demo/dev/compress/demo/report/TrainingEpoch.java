package dev.compress.demo.report;

import java.util.List;
import java.util.Map;

/** One epoch of a training run as the model API reports it; a null value was not recorded for the method. */
public record TrainingEpoch(int epoch, Double loss, Double activeTripletRatio, Double validationNdcg) {

    /** The {@code progress.history} list of a model document. */
    public static List<TrainingEpoch> fromHistory(List<Map<String, Object>> history) {
        return history.stream()
                .map(e -> new TrainingEpoch(
                        ((Number) e.get("epoch")).intValue(),
                        number(e.get("loss")),
                        number(e.get("active_triplet_ratio")),
                        number(e.get("validation_ndcg@10"))))
                .toList();
    }

    private static Double number(Object value) {
        return value instanceof Number n && Double.isFinite(n.doubleValue()) ? n.doubleValue() : null;
    }
}
