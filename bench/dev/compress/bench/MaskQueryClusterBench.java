package dev.compress.bench;

import dev.compress.harness.BenchData;
import dev.compress.plugin.CompressClusterTestCase;
import dev.compress.plugin.model.ModelState;
import dev.compress.plugin.query.CompressedKnnQueryBuilder;
import dev.compress.plugin.query.mask.MaskSpec;
import dev.compress.plugin.query.mask.MaskType;
import dev.compress.training.mask.FeedbackFeatures;
import dev.compress.training.model.LayerSpec;
import dev.compress.training.model.ModelArtifact;
import dev.compress.training.model.ModelMetadata;
import dev.compress.training.model.Tensor;
import dev.compress.training.trainer.QueryMaskTrainer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.opensearch.action.bulk.BulkRequestBuilder;
import org.opensearch.action.search.SearchResponse;
import org.opensearch.common.settings.Settings;
import org.opensearch.search.SearchHit;
import org.opensearch.test.OpenSearchIntegTestCase;

/**
 * What {@code mask} costs a {@code compressed_knn} query on the in-JVM two-node cluster (not a timed
 * test: run with {@code mvn test -Dtest=MaskQueryClusterBench}): scifact's 5,183 bge-small vectors in a
 * float and a binary field (two shards), its 300 judged test queries searched without a mask and
 * with each mask type at 30% of the dimensions, interleaved, after a warm-up. The learned mask model
 * has random weights: its cost is that of a trained one (the first pass DIME-PRF runs, then one 768 x 384
 * layer over the query and its feedback), its nDCG is not.
 */
@OpenSearchIntegTestCase.ClusterScope(scope = OpenSearchIntegTestCase.Scope.SUITE, numDataNodes = 2, numClientNodes = 0)
public class MaskQueryClusterBench extends CompressClusterTestCase {

    private static final int K = 10;
    private static final int ROUNDS = 3;

    private static ModelArtifact randomMaskModel(int dim) {
        Random random = new Random(7);
        int in = FeedbackFeatures.WIDTH * dim;
        float[] weight = new float[dim * in];
        for (int i = 0; i < weight.length; i++) {
            weight[i] = (float) random.nextGaussian() / (float) Math.sqrt(in);
        }
        Map<String, Tensor> tensors = new LinkedHashMap<>();
        tensors.put("scores.weight", new Tensor("scores.weight", new int[] {dim, in}, weight));
        tensors.put("scores.bias", new Tensor("scores.bias", new int[] {dim}, new float[dim]));
        return new ModelArtifact(
                new ModelMetadata(
                        "query_mask",
                        in,
                        List.of(dim),
                        ModelMetadata.OUTPUT_DIMENSION_SCORES,
                        ModelMetadata.NORM_NONE,
                        1,
                        List.of(LayerSpec.linear("scores", in, dim)),
                        Map.of(),
                        Map.of(QueryMaskTrainer.FEEDBACK_DOCS, MaskSpec.DEFAULT_FEEDBACK_DOCS),
                        Map.of()),
                tensors);
    }

    private int[] ids(CompressedKnnQueryBuilder query) {
        SearchResponse response =
                client().prepareSearch("docs").setQuery(query).setSize(K).get();
        return Arrays.stream(response.getHits().getHits())
                .mapToInt((SearchHit hit) -> Integer.parseInt(hit.getId()))
                .toArray();
    }

    public void testMaskCost() throws IOException {
        Path data = Path.of(System.getProperty("compress.data.dir", "../shared/data"));
        BenchData set = BenchData.beir(
                "scifact",
                data.resolve("embeddings/scifact/bge-small-en-v1.5"),
                data.resolve("beir/scifact/qrels/test.tsv"));
        int dim = set.corpus()[0].length;
        client().admin()
                .indices()
                .prepareCreate("docs")
                .setSettings(Settings.builder()
                        .put("index.number_of_shards", 2)
                        .put("index.number_of_replicas", 0)
                        .put("index.compress", true))
                .setMapping("{\"dynamic\":false,\"properties\":{"
                        + "\"emb\":{\"type\":\"compressed_vector\",\"dimension\":" + dim
                        + ",\"encoding\":\"float\",\"similarity\":\"dot_product\"},"
                        + "\"embb\":{\"type\":\"compressed_vector\",\"dimension\":" + dim
                        + ",\"encoding\":\"binary\",\"similarity\":\"dot_product\"}}}")
                .get();
        for (int from = 0; from < set.corpus().length; from += 500) {
            BulkRequestBuilder bulk = client().prepareBulk();
            for (int i = from; i < Math.min(set.corpus().length, from + 500); i++) {
                bulk.add(client().prepareIndex("docs")
                        .setId(Integer.toString(i))
                        .setSource(Map.of("emb", set.corpus()[i], "embb", set.corpus()[i])));
            }
            assertFalse(bulk.get().hasFailures());
        }
        client().admin().indices().prepareRefresh("docs").get();
        client().admin()
                .indices()
                .prepareForceMerge("docs")
                .setMaxNumSegments(1)
                .get();
        storeModel("qm", randomMaskModel(dim), ModelState.CREATED);

        int[] judged = set.judgments().keySet().stream()
                .mapToInt(Integer::intValue)
                .sorted()
                .toArray();
        Map<String, MaskSpec> masks = new LinkedHashMap<>();
        masks.put("none", null);
        masks.put("learned", new MaskSpec(MaskType.LEARNED, 0.3, null, "qm", 1, 10, 1000, null));
        masks.put("norm", new MaskSpec(MaskType.NORM, 0.3, null, null, 1, 10, 1000, null));
        masks.put("dime_prf", new MaskSpec(MaskType.DIME_PRF, 0.3, null, null, 1, 10, 1000, null));
        masks.put("eclipse_prf", new MaskSpec(MaskType.ECLIPSE_PRF, 0.3, null, null, 1, 10, 1000, null));
        for (String field : List.of("emb", "embb")) {
            double[][] millis = new double[masks.size()][judged.length * ROUNDS];
            double[] ndcg = new double[masks.size()];
            for (int round = -1; round < ROUNDS; round++) { // round -1 warms up
                for (int q = 0; q < judged.length; q++) {
                    int m = 0;
                    for (MaskSpec mask : masks.values()) {
                        CompressedKnnQueryBuilder query = CompressedKnnQueryBuilder.builder()
                                .field(field)
                                .vector(set.queries()[judged[q]])
                                .k(K)
                                .mask(mask)
                                .build();
                        long start = System.nanoTime();
                        int[] found = ids(query);
                        double elapsed = (System.nanoTime() - start) / 1e6;
                        if (round >= 0) {
                            millis[m][round * judged.length + q] = elapsed;
                        }
                        if (round == 0) {
                            ndcg[m] += set.ndcg(judged[q], found, K) / judged.length;
                        }
                        m++;
                    }
                }
            }
            StringBuilder line = new StringBuilder(String.format(
                    Locale.ROOT, "BENCH field %s, %d queries x %d rounds:", field, judged.length, ROUNDS));
            int m = 0;
            double baseP50 = p50(millis[0]);
            double baseMean = Arrays.stream(millis[0]).average().orElseThrow();
            for (String name : masks.keySet()) {
                double p50 = p50(millis[m]);
                double mean = Arrays.stream(millis[m]).average().orElseThrow();
                line.append(String.format(
                        Locale.ROOT,
                        " | %s p50 %.3f ms (%.2fx) mean %.3f ms (%.2fx) nDCG@10 %.4f",
                        name,
                        p50,
                        p50 / baseP50,
                        mean,
                        mean / baseMean,
                        ndcg[m]));
                m++;
            }
            logger.info(line.toString());
        }
    }

    private static double p50(double[] millis) {
        double[] sorted = millis.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
