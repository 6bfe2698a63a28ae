package dev.compress.demo;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.Test;

/** The main job's command line: defaults, overrides, and errors that name the option and value. */
public class DemoOptionsTests {

    private static DemoOptions parse(String... args) {
        return DemoOptions.parse(List.of(args), Path.of("target"));
    }

    @Test
    public void defaultsAreScifactBgeDive64() {
        DemoOptions o = parse();
        assertEquals("scifact", o.dataset().name());
        assertEquals("test", o.dataset().heldOutSplit());
        assertEquals("bge-small-en-v1.5", o.model());
        assertEquals("dive", o.method());
        assertEquals(64, o.dims());
        assertEquals(Map.of(), o.trainParameters());
        assertEquals(Path.of("target", "demo"), o.outDir());
    }

    @Test
    public void nfcorpusCapsTrainingAndParamsOverrideTheCaps() {
        DemoOptions o =
                parse("--dataset", "nfcorpus", "--model", "all-MiniLM-L6-v2", "--param", "epochs=3", "--dims", "32");
        assertEquals("dev", o.dataset().heldOutSplit());
        assertEquals(Map.of("max_triplets_per_epoch", "4096", "patience", "4", "epochs", "3"), o.trainParameters());
        assertEquals(32, o.dims());
        assertEquals(Map.of(), parse("--dataset", "nfcorpus", "--method", "pca").trainParameters());
    }

    @Test
    public void badOptionsNameTheOptionAndValue() {
        assertTrue(assertThrows(DemoOptions.UsageException.class, () -> parse("--dataset", "msmarco"))
                .getMessage()
                .contains("[--dataset] must be scifact or nfcorpus, got [msmarco]"));
        assertTrue(assertThrows(DemoOptions.UsageException.class, () -> parse("--dims", "-4"))
                .getMessage()
                .contains("[--dims] must be a positive integer, got [-4]"));
        assertTrue(assertThrows(DemoOptions.UsageException.class, () -> parse("--param", "epochs"))
                .getMessage()
                .contains("[--param] must look like name=value, got [epochs]"));
        assertTrue(assertThrows(DemoOptions.UsageException.class, () -> parse("--model", "e5"))
                .getMessage()
                .contains("[--model] must be one of"));
        assertTrue(assertThrows(DemoOptions.UsageException.class, () -> parse("--colour", "red"))
                .getMessage()
                .contains("unknown option [--colour]"));
        assertTrue(assertThrows(DemoOptions.UsageException.class, () -> parse("--dims"))
                .getMessage()
                .contains("option [--dims] needs a value"));
    }

    @Test
    public void parameterValuesAreSentAsJsonNumbersWhenTheyAreNumbers() {
        assertEquals(12L, TrainingJob.jsonValue("12"));
        assertEquals(1e-3, (Double) TrainingJob.jsonValue("1e-3"), 0);
        assertEquals(0.5, (Double) TrainingJob.jsonValue(".5"), 0);
        assertEquals("paper", TrainingJob.jsonValue("paper"));
        assertEquals("true", TrainingJob.jsonValue("true"));
    }
}
