package dev.compress.demo;

import java.util.Map;

/**
 * A BEIR data set the main job knows: which qrels split trains and which is held out (scifact's test;
 * nfcorpus's dev, as its test qrels are not in the shared data), and whether training must be capped
 * to finish in minutes on two cores.
 *
 * @param capped nfcorpus has 110k judged pairs: a fresh 4,096-triplet sample per epoch and fewer epochs
 */
public record DemoDataset(String name, String trainSplit, String heldOutSplit, boolean capped) {

    public static DemoDataset named(String name) {
        return switch (name) {
            case "scifact" -> new DemoDataset("scifact", "train", "test", false);
            case "nfcorpus" -> new DemoDataset("nfcorpus", "train", "dev", true);
            default ->
                throw new DemoOptions.UsageException("[--dataset] must be scifact or nfcorpus, got [" + name + "]");
        };
    }

    /** Default {@code _train} parameters for a method on this data set (none for the closed-form methods). */
    public Map<String, String> trainingDefaults(String method) {
        if (capped == false || method.equals("pca") || method.equals("truncation")) {
            return Map.of();
        }
        return method.equals("smec")
                ? Map.of("max_triplets_per_epoch", "4096", "patience", "3", "epochs_per_stage", "5")
                : Map.of("max_triplets_per_epoch", "4096", "patience", "4", "epochs", "12");
    }
}
