package dev.compress.demo;

import static org.junit.Assert.assertEquals;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.Test;

public class TrainingJobTests {

    @Test
    public void epochLineCountsTheJobsTrainedEpochsNotTheTrainersNumbers() {
        // a mask job's last report is numbered across its taus' untrained starts: 803 of the 800 trained
        Map<String, Object> progress = new LinkedHashMap<>();
        progress.put("epochs_done", 800);
        progress.put("total_epochs", 800);
        Map<String, Object> last = new LinkedHashMap<>();
        last.put("epoch", 803);
        last.put("loss", 0.00012);
        last.put("validation_ndcg@10", 0.8134);
        assertEquals("epoch 800/800  loss 0.0001  val nDCG@10 0.8134", TrainingJob.epochLine(last, progress));
    }

    @Test
    public void phaseLineNamesThePhaseAndItsCount() {
        assertEquals(
                "cross-validation 3/20",
                TrainingJob.phaseLine(Map.of("name", "cross_validation", "done", 3, "total", 20)));
    }
}
