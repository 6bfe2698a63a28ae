package dev.compress.bwc;

import java.util.List;

/**
 * What the reader of the version that wrote a model file resource found in it, kept beside the file:
 * later readers must find the same metadata and encode the same inputs to the same outputs.
 *
 * @param formatVersion the model file's format version
 * @param method the training method in the metadata
 * @param inputDimension the input dimension in the metadata
 * @param outputDimensions the output dimensions the model serves
 * @param inputs input vectors
 * @param outputs each input encoded at the largest output dimension
 */
record ModelExpectations(
        int formatVersion,
        String method,
        int inputDimension,
        List<Integer> outputDimensions,
        List<float[]> inputs,
        List<float[]> outputs) {}
