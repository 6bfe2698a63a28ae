package dev.compress.plugin.train;

import dev.compress.demo.embed.BeirTexts;
import dev.compress.training.TestData;
import dev.compress.training.data.EmbeddedDataset;
import dev.compress.training.data.Qrels;
import dev.compress.training.data.VectorRows;
import java.io.IOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.opensearch.action.bulk.BulkRequestBuilder;
import org.opensearch.action.bulk.BulkResponse;
import org.opensearch.common.settings.Settings;
import org.opensearch.transport.client.Client;

/**
 * Loads BEIR scifact (bge-small-en-v1.5 vectors) into three ordinary indices the way a user would
 * hold them: {@value #CORPUS} (doc id = BEIR id, 384-d float {@code compressed_vector}),
 * {@value #QUERIES} ({@code query_id}, {@code vector}) and {@value #JUDGMENTS}
 * ({@code query_id}, {@code doc_id}, {@code rating}, {@code split} = train | test).
 */
public final class ScifactIndices {

    public static final String CORPUS = "scifact-corpus";
    public static final String QUERIES = "scifact-queries";
    public static final String JUDGMENTS = "scifact-judgments";

    private ScifactIndices() {}

    public static EmbeddedDataset dataset() {
        return TestData.dataset("scifact", "bge-small-en-v1.5");
    }

    /** Query id to text, from {@code queries.jsonl}. */
    public static Map<String, String> queryTexts() throws IOException {
        BeirTexts queries = BeirTexts.queries(TestData.dataDir().resolve("beir/scifact"));
        Map<String, String> texts = new HashMap<>();
        for (int i = 0; i < queries.size(); i++) {
            texts.put(queries.ids().get(i), queries.texts().get(i));
        }
        return texts;
    }

    public static void load(Client client) throws IOException {
        EmbeddedDataset ds = dataset();
        Settings one = Settings.builder()
                .put("index.number_of_shards", 2)
                .put("index.number_of_replicas", 0)
                .put("index.compress", true)
                .build();
        client.admin()
                .indices()
                .prepareCreate(CORPUS)
                .setSettings(one)
                .setMapping("{\"properties\":{\"vector\":{\"type\":\"compressed_vector\",\"dimension\":" + ds.dim()
                        + ",\"encoding\":\"float\"}}}")
                .get();
        client.admin()
                .indices()
                .prepareCreate(QUERIES)
                .setSettings(one)
                .setMapping(
                        "{\"properties\":{\"query_id\":{\"type\":\"keyword\"},\"text\":{\"type\":\"keyword\"},\"vector\":{\"type\":\"compressed_vector\",\"dimension\":"
                                + ds.dim() + ",\"encoding\":\"float\"}}}")
                .get();
        client.admin()
                .indices()
                .prepareCreate(JUDGMENTS)
                .setSettings(one)
                .setMapping(
                        "{\"properties\":{\"query_id\":{\"type\":\"keyword\"},\"doc_id\":{\"type\":\"keyword\"},\"rating\":{\"type\":\"integer\"},\"split\":{\"type\":\"keyword\"}}}")
                .get();
        index(client, CORPUS, ds.corpus(), null, Map.of());
        Map<String, String> splitOf = new HashMap<>();
        Qrels train = ds.beir().qrels("train");
        Qrels test = ds.beir().qrels("test");
        train.queryIds().forEach(q -> splitOf.put(q, "train"));
        test.queryIds().forEach(q -> splitOf.put(q, "test"));
        Set<String> judged = new HashSet<>(splitOf.keySet());
        index(client, QUERIES, ds.queries(), judged, queryTexts());
        BulkRequestBuilder bulk = client.prepareBulk();
        for (Qrels qrels : new Qrels[] {train, test}) {
            for (String q : qrels.queryIds()) {
                qrels.judgments(q)
                        .forEach((doc, rating) -> bulk.add(client.prepareIndex(JUDGMENTS)
                                .setSource(Map.of(
                                        "query_id", q, "doc_id", doc, "rating", rating, "split", splitOf.get(q)))));
            }
        }
        check(bulk.get());
        client.admin().indices().prepareRefresh(CORPUS, QUERIES, JUDGMENTS).get();
    }

    /** Indexes rows of {@code vectors}; queries get {@code query_id} and {@code text} fields, and only the judged ones are kept. */
    private static void index(
            Client client, String index, VectorRows vectors, Set<String> onlyIds, Map<String, String> texts) {
        BulkRequestBuilder bulk = client.prepareBulk();
        for (int i = 0; i < vectors.size(); i++) {
            String id = vectors.id(i);
            if (onlyIds != null && onlyIds.contains(id) == false) {
                continue;
            }
            Map<String, Object> source = onlyIds == null
                    ? Map.of("vector", vectors.row(i))
                    : Map.of("query_id", id, "text", texts.get(id), "vector", vectors.row(i));
            bulk.add(client.prepareIndex(index).setId(id).setSource(source));
            if (bulk.numberOfActions() == 1000) {
                check(bulk.get());
                bulk.request().requests().clear();
            }
        }
        if (bulk.numberOfActions() > 0) {
            check(bulk.get());
        }
    }

    private static void check(BulkResponse response) {
        if (response.hasFailures()) {
            throw new IllegalStateException(response.buildFailureMessage());
        }
    }
}
