package dev.compress.training.trainer;

import dev.compress.training.model.ModelArtifact;

/** A trainer's output: the model (to write as a model file) and the training report. */
public record TrainedModel(ModelArtifact artifact, TrainingReport report) {}
