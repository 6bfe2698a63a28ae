package dev.compress.training.cli;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.compress.training.TestData;
import dev.compress.training.data.BeirFiles;
import dev.compress.training.data.Qrels;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.Test;

/**
 * {@code TrainCli cv} scores every judged training query once per value, with a model trained on the
 * other folds, beside PCA; it refuses a grid whose values would not change the training.
 */
public class CrossValidateCommandTests {

    @Test
    public void everyTrainingQueryIsScoredOncePerValue() throws Exception {
        Path data = TestData.dataDir();
        Path report = Files.createTempFile("cv", ".json");
        TrainCli.main(new String[] {
            "cv",
            "--dataset",
            "scifact",
            "--model",
            "bge-small-en-v1.5",
            "--method",
            "temperature_mrl",
            "--dims",
            "32",
            "--epochs",
            "1",
            "--max-triplets",
            "256",
            "--folds",
            "2",
            "--grid",
            "lr=1e-3,3e-3",
            "--report",
            report.toString(),
            "--data",
            data.toString()
        });
        JsonNode json = new ObjectMapper().readTree(report.toFile());
        Files.delete(report);
        Qrels train = BeirFiles.of(data, "scifact").qrels("train");
        long judged = train.queryIds().stream()
                .filter(q -> !train.relevant(q).isEmpty())
                .count();
        assertEquals(judged, json.get("queries").asLong());
        assertEquals(2, json.get("results").size());
        // the same folds for every value: PCA, which no training flag changes, scores alike
        double pca = json.get("results")
                .get(0)
                .get("dims")
                .get(0)
                .get("pca_ratio_to_frozen")
                .asDouble();
        for (JsonNode value : json.get("results")) {
            JsonNode dims = value.get("dims").get(0);
            assertEquals(32, dims.get("dims").asInt());
            assertEquals(pca, dims.get("pca_ratio_to_frozen").asDouble(), 0);
            assertTrue(dims.toString(), pca > 0.3 && pca < 1);
            assertTrue(dims.toString(), dims.get("ratio_to_frozen").asDouble() >= pca - 0.05);
        }
        String chosen = json.get("chosen").asText();
        assertTrue(chosen, chosen.equals("1e-3") || chosen.equals("3e-3"));
    }

    @Test
    public void aGridOfAFlagTheMethodIgnoresIsRefused() {
        Map<String, String> opt = Map.of(
                "dataset", "scifact",
                "model", "bge-small-en-v1.5",
                "method", "temperature_mrl",
                "dims", "32",
                "grid", "foo=0.2,0.5");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CrossValidateCommand.run(opt));
        assertTrue(e.getMessage(), e.getMessage().contains("[foo] is not a training flag of temperature_mrl"));
    }
}
