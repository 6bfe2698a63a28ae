package dev.compress.demo.embed;

import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import java.io.IOException;
import java.io.InputStream;
import java.nio.LongBuffer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Embeds texts with one {@link SentenceModel}: its tokenizer.json through DJL's HuggingFace
 * tokenizer (the Rust library ships inside the DJL jar) and its fp32 ONNX graph through
 * onnxruntime's CPU provider, both loaded from the classpath so nothing is fetched at run time.
 *
 * <p>A batch is padded on the right to its longest input and the padding is masked, so each
 * vector equals the one the input would get alone (the shared vectors were made one at a time).
 * Not thread-safe; one instance uses {@code threads} cores for each batch.
 */
public final class OnnxTextEncoder implements AutoCloseable {

    private final SentenceModel model;
    private final HuggingFaceTokenizer tokenizer;
    private final OrtEnvironment environment;
    private final OrtSession session;
    private final boolean takesTokenTypes;

    public OnnxTextEncoder(SentenceModel model, int threads) throws IOException {
        this.model = model;
        this.tokenizer = tokenizer(model);
        this.environment = OrtEnvironment.getEnvironment();
        try (OrtSession.SessionOptions options = new OrtSession.SessionOptions();
                InputStream onnx = resource(model.onnxResource())) {
            options.setOptimizationLevel(OrtSession.SessionOptions.OptLevel.ALL_OPT);
            options.setIntraOpNumThreads(threads);
            options.setInterOpNumThreads(1);
            // idle worker threads sleep instead of spinning: the machine is shared with a node and builds
            options.addConfigEntry("session.intra_op.allow_spinning", "0");
            this.session = environment.createSession(onnx.readAllBytes(), options);
            this.takesTokenTypes = session.getInputNames().contains("token_type_ids");
        } catch (OrtException e) {
            tokenizer.close();
            throw new IOException("cannot load " + model.onnxResource() + " into onnxruntime", e);
        } catch (IOException | RuntimeException e) {
            tokenizer.close();
            throw e;
        }
    }

    /** Documents are embedded as they are. */
    public float[][] embedDocuments(List<String> texts) throws IOException {
        return embed(texts, "");
    }

    /** Queries get the model's query prefix first. */
    public float[][] embedQueries(List<String> texts) throws IOException {
        return embed(texts, model.queryPrefix());
    }

    /** Token ids after the model's truncation, [CLS] and [SEP] included. */
    public long[] tokenIds(String text) {
        return tokenizer.encode(text).getIds();
    }

    private float[][] embed(List<String> texts, String prefix) throws IOException {
        if (texts.isEmpty()) {
            return new float[0][];
        }
        Encoding[] encodings =
                tokenizer.batchEncode(texts.stream().map(t -> prefix + t).toList());
        int longest = 0;
        for (Encoding e : encodings) {
            longest = Math.max(longest, e.getIds().length);
        }
        int batch = encodings.length;
        long[] ids = new long[batch * longest];
        long[] mask = new long[batch * longest];
        long[] types = new long[batch * longest];
        for (int i = 0; i < batch; i++) {
            long[] row = encodings[i].getIds();
            System.arraycopy(row, 0, ids, i * longest, row.length);
            System.arraycopy(encodings[i].getAttentionMask(), 0, mask, i * longest, row.length);
            System.arraycopy(encodings[i].getTypeIds(), 0, types, i * longest, row.length);
        }
        long[] shape = {batch, longest};
        Map<String, OnnxTensor> inputs = new HashMap<>();
        try {
            inputs.put("input_ids", OnnxTensor.createTensor(environment, LongBuffer.wrap(ids), shape));
            inputs.put("attention_mask", OnnxTensor.createTensor(environment, LongBuffer.wrap(mask), shape));
            if (takesTokenTypes) {
                inputs.put("token_type_ids", OnnxTensor.createTensor(environment, LongBuffer.wrap(types), shape));
            }
            try (OrtSession.Result result = session.run(inputs)) {
                float[][][] hidden = (float[][][]) result.get("last_hidden_state")
                        .orElseThrow(() -> new IOException(model.onnxResource() + " has no output 'last_hidden_state'"))
                        .getValue();
                float[][] out = new float[batch][];
                for (int i = 0; i < batch; i++) {
                    out[i] = model.pooling().embed(hidden[i], Arrays.copyOfRange(mask, i * longest, (i + 1) * longest));
                }
                return out;
            }
        } catch (OrtException e) {
            throw new IOException("onnxruntime failed on a batch of " + batch + " inputs", e);
        } finally {
            inputs.values().forEach(OnnxTensor::close);
        }
    }

    /** Special tokens on, longest-first truncation to the model's limit, no padding (we pad per batch). */
    private static HuggingFaceTokenizer tokenizer(SentenceModel model) throws IOException {
        try (InputStream json = resource(model.tokenizerResource())) {
            return HuggingFaceTokenizer.newInstance(
                    json,
                    Map.of(
                            "addSpecialTokens", "true",
                            "truncation", "true",
                            "padding", "false",
                            "maxLength", Integer.toString(model.maxTokens())));
        }
    }

    private static InputStream resource(String name) throws IOException {
        InputStream in = OnnxTextEncoder.class.getClassLoader().getResourceAsStream(name);
        if (in == null) {
            throw new IOException(name + " is not on the classpath; it comes from the langchain4j embeddings jar"
                    + " (test-scope dependency in pom.xml)");
        }
        return in;
    }

    @Override
    public void close() throws IOException {
        try {
            session.close();
        } catch (OrtException e) {
            throw new IOException(e);
        } finally {
            tokenizer.close();
        }
    }
}
