package dev.compress.training.cli;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.compress.training.TestData;
import dev.compress.training.model.ModelArtifact;
import dev.compress.training.model.ModelFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.Test;

/** End to end through the CLI with the cheapest method: model file and JSON report are written and consistent. */
public class TrainCliTests {

    @Test
    public void truncationRunWritesModelAndReport() throws Exception {
        Path data = TestData.dataDir();
        Path dir = Files.createTempDirectory("traincli");
        Path out = dir.resolve("trunc.bin");
        TrainCli.main(new String[] {
            "train",
            "--dataset",
            "scifact",
            "--model",
            "bge-small-en-v1.5",
            "--method",
            "truncation",
            "--dims",
            "64,32",
            "--out",
            out.toString(),
            "--data",
            data.toString()
        });
        ModelArtifact model = ModelFile.read(out);
        assertEquals(List.of(32, 64), model.metadata().outputDims());
        JsonNode report =
                new ObjectMapper().readTree(dir.resolve("trunc.bin.report.json").toFile());
        JsonNode table = report.get("table");
        assertEquals(3 + 2 * 3, table.size());
        assertEquals("frozen", table.get(0).get("method").asText());
        assertEquals(0.7127, table.get(0).get("ndcg@10").asDouble(), 0.001);
        assertTrue(model.metadata().evaluation().containsKey("rows"));
        for (Path p : List.of(out, dir.resolve("trunc.bin.report.json"))) {
            Files.delete(p);
        }
        Files.delete(dir);
    }

    /** Training flags reach the trainer under the {@code _train} API's parameter names. */
    @Test
    public void flagsMapToTrainParameters() {
        Map<String, Object> p = TrainCli.parameters(
                TrainCli.parse(new String[] {
                    "--margin", "0.25", "--margin-scale", "score_gap", "--preserve", "0.5", "--epochs", "40"
                }),
                "dive");
        assertEquals(Map.of("margin", 0.25, "margin_scale", "score_gap", "preserve_weight", 0.5, "epochs", 40), p);
    }
}
