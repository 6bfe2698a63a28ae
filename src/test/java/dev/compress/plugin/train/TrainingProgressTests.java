package dev.compress.plugin.train;

import dev.compress.plugin.CompressPlugin;
import dev.compress.plugin.model.action.ModelActions;
import dev.compress.plugin.model.action.ModelIdRequest;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.opensearch.plugins.Plugin;
import org.opensearch.test.OpenSearchIntegTestCase;

/**
 * A job's {@code progress} counts trained epochs against the epochs planned, whatever its trainer
 * reports besides: its untrained start (epoch 0), the start of each tau of the mask predictor's grid,
 * a tau's summary of its best epoch. {@code history} keeps every report, and {@code phase} the
 * count of the mask predictor's cross-validation folds trained after its epochs.
 */
@OpenSearchIntegTestCase.ClusterScope(scope = OpenSearchIntegTestCase.Scope.SUITE, numDataNodes = 1, numClientNodes = 0)
public class TrainingProgressTests extends OpenSearchIntegTestCase {

    @Override
    protected Collection<Class<? extends Plugin>> nodePlugins() {
        return List.of(CompressPlugin.class);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> trainToCreated(String modelId, Map<String, Object> body) throws Exception {
        client().execute(ModelActions.TRAIN, new TrainModelRequest(modelId, body))
                .actionGet();
        Map<String, Object>[] model = new Map[1];
        assertBusy(
                () -> {
                    model[0] = client().execute(ModelActions.GET, new ModelIdRequest(modelId, false))
                            .actionGet()
                            .model()
                            .source();
                    assertEquals(String.valueOf(model[0]), "created", model[0].get("state"));
                },
                3,
                TimeUnit.MINUTES);
        return (Map<String, Object>) model[0].get("progress");
    }

    private static void assertCounts(Map<String, Object> progress, int done, int total, int reports) {
        assertEquals(String.valueOf(progress), done, progress.get("epochs_done"));
        assertEquals(String.valueOf(progress), total, progress.get("total_epochs"));
        assertEquals(String.valueOf(progress), reports, ((List<?>) progress.get("history")).size());
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> history(Map<String, Object> progress) {
        return (List<Map<String, Object>>) progress.get("history");
    }

    private static Map<String, Object> crossValidation(int folds) {
        return Map.of("name", "cross_validation", "done", folds, "total", folds);
    }

    public void testEpochsDoneAndTotalCountTrainedEpochs() throws Exception {
        SyntheticIndices.load(client(), new Random(random().nextLong()));
        // one tau: its start (epoch 0), 3 epochs and its summary were reported as total 4, done 5
        Map<String, Object> oneTau = trainToCreated(
                "mask-3", SyntheticIndices.trainBody("query_mask", null, Map.of("epochs", 3, "tau", 0.03)));
        assertCounts(oneTau, 3, 3, 5);
        // then its predictor trained once per fold of the cross-validation, and the job counted them
        assertEquals(crossValidation(5), oneTau.get("phase"));
        // the paper's grid of 4 taus, each with its start, 2 epochs (well within its patience) and its summary
        Map<String, Object> grid =
                trainToCreated("mask-grid", SyntheticIndices.trainBody("query_mask", null, Map.of("epochs", 2)));
        assertCounts(grid, 8, 8, 16);
        assertEquals(crossValidation(20), grid.get("phase"));
        // each entry says which tau's run it is, four entries to a tau, each with the validation KL
        Map<Object, Long> entriesByTau = history(grid).stream()
                .peek(e -> assertNotNull(String.valueOf(e), e.get("val_kl")))
                .collect(Collectors.groupingBy(e -> e.get("tau"), Collectors.counting()));
        assertEquals(String.valueOf(entriesByTau), List.of(4L, 4L, 4L, 4L), List.copyOf(entriesByTau.values()));
        // trainers that count as the job does stay as they were, with nothing after their epochs: the phase is the
        // corpus PCA before them, done
        Map<String, Object> pcaDone = Map.of("name", "corpus_pca_decomposition", "done", 1, "total", 1);
        Map<String, Object> dive =
                trainToCreated("dive-3", SyntheticIndices.trainBody("dive", 8, Map.of("epochs", 3, "patience", 0)));
        assertCounts(dive, 3, 3, 4);
        // and give the terms of their loss
        assertNotNull(String.valueOf(dive), history(dive).get(1).get("triplet"));
        assertEquals(pcaDone, dive.get("phase"));
        Map<String, Object> pca = trainToCreated("pca", SyntheticIndices.trainBody("pca", 8, Map.of()));
        assertCounts(pca, 1, 1, 1);
        assertEquals(pcaDone, pca.get("phase"));
    }
}
