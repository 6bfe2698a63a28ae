package dev.compress.plugin.inference;

import org.opensearch.core.action.ActionListener;

/** Fetches and parses one model; {@link ModelCache} decides when. */
@FunctionalInterface
public interface ModelLoader {

    void load(String modelId, ActionListener<LoadedModel> listener);
}
