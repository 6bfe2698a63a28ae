package dev.compress.training.model;

import java.util.List;
import java.util.Map;

/**
 * What a model file says about itself (stored as JSON).
 *
 * @param method             trainer name, e.g. {@code dive}, {@code pca}, {@code truncation}
 * @param inputDim           dimension of the raw vectors it accepts
 * @param outputDims         the output dimensions it serves, ascending; nested (Matryoshka) models list
 *                           several and a consumer takes the first d values of the layer stack's output
 * @param output             {@link #OUTPUT_EMBEDDING} or {@link #OUTPUT_DIMENSION_SCORES} (a mask predictor:
 *                           one importance score per input dimension)
 * @param normalization      {@link #NORM_L2} or {@link #NORM_NONE}, applied after taking the prefix
 * @param heads              heads trained (DIVE); only the first is stored and served
 * @param layers             the layer stack applied to the input, in order (empty = identity)
 * @param auxiliaryTensors   further tensors a method needs beyond its layers, name -> shape
 * @param trainingParameters the trainer's configuration, for provenance
 * @param evaluation         the evaluation report at export time (free-form JSON object)
 */
public record ModelMetadata(
        String method,
        int inputDim,
        List<Integer> outputDims,
        String output,
        String normalization,
        int heads,
        List<LayerSpec> layers,
        Map<String, List<Integer>> auxiliaryTensors,
        Map<String, Object> trainingParameters,
        Map<String, Object> evaluation) {
    public static final String OUTPUT_EMBEDDING = "embedding";
    public static final String OUTPUT_DIMENSION_SCORES = "dimension_scores";
    public static final String NORM_L2 = "l2";
    public static final String NORM_NONE = "none";

    public ModelMetadata {
        outputDims = List.copyOf(outputDims);
        layers = List.copyOf(layers);
        auxiliaryTensors = auxiliaryTensors == null ? Map.of() : auxiliaryTensors;
        trainingParameters = trainingParameters == null ? Map.of() : trainingParameters;
        evaluation = evaluation == null ? Map.of() : evaluation;
    }

    /**
     * The dimension of the vectors the model is for: an adapter's input; a mask model's query, whose dimensions it
     * scores (its input may hold the query's first-pass feedback as well).
     */
    public int vectorDim() {
        return OUTPUT_DIMENSION_SCORES.equals(output) ? maxOutputDim() : inputDim;
    }

    public int maxOutputDim() {
        return outputDims.stream().mapToInt(Integer::intValue).max().orElseThrow();
    }

    /** A copy carrying an evaluation report. */
    public ModelMetadata withEvaluation(Map<String, Object> report) {
        return new ModelMetadata(
                method,
                inputDim,
                outputDims,
                output,
                normalization,
                heads,
                layers,
                auxiliaryTensors,
                trainingParameters,
                report);
    }
}
