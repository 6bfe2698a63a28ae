package dev.compress.training.sampling;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import dev.compress.training.TestData;
import dev.compress.training.data.EmbeddedDataset;
import dev.compress.training.data.Qrels;
import java.io.IOException;
import java.util.HashSet;
import java.util.Set;
import org.junit.Test;

public class TrainingDataTests {

    @Test
    public void splitsAreDisjointSeededAndNegativesAreNotRelevant() throws IOException {
        EmbeddedDataset ds = TestData.dataset("scifact", "bge-small-en-v1.5");
        Qrels train = ds.beir().qrels("train");
        QuerySplit split = QuerySplit.ofDatasetSplits(train, ds.beir().qrels("test"), 0.1, 42);
        assertEquals(split, QuerySplit.ofDatasetSplits(train, ds.beir().qrels("test"), 0.1, 42));
        assertEquals(81, split.validation().size());
        assertEquals(728, split.train().size());
        assertEquals(300, split.test().size());

        TrainingData data = TrainingData.build(ds, train, split, 20);
        Set<String> trainIds = new HashSet<>(split.train());
        assertTrue(trainIds.containsAll(data.queries().ids()));
        for (String v : data.validation().queries().ids()) {
            assertFalse(trainIds.contains(v));
        }
        for (int q = 0; q < data.queries().size(); q++) {
            assertEquals(20, data.hardNegatives()[q].length);
            for (int doc : data.hardNegatives()[q]) {
                assertFalse(data.relevantDocs().get(q).contains(doc));
            }
        }
        TripletSampler sampler = new TripletSampler(data, 0.5, 0, 1);
        TripletSampler.Triplets t = sampler.epoch(1);
        assertEquals(data.positives().size(), t.size());
        for (int i = 0; i < t.size(); i++) {
            assertTrue(data.relevantDocs().get(t.query()[i]).contains(t.positive()[i]));
            assertFalse(data.relevantDocs().get(t.query()[i]).contains(t.negative()[i]));
        }
        assertEquals(
                java.util.Arrays.toString(t.negative()),
                java.util.Arrays.toString(sampler.epoch(1).negative()));
        assertEquals(100, new TripletSampler(data, 0.5, 100, 1).epoch(2).size());
    }

    @Test
    public void gradedGainsOnNfcorpus() throws IOException {
        EmbeddedDataset ds = TestData.dataset("nfcorpus", "bge-small-en-v1.5");
        Qrels dev = ds.beir().qrels("dev");
        QuerySplit split = QuerySplit.ofFractions(dev, 0.2, 0.3, 1);
        TrainingData data = TrainingData.build(ds, dev, split, 5);
        assertTrue(data.positives().stream().anyMatch(p -> p.gain() == 3f));
        assertTrue(data.positives().stream().allMatch(p -> p.gain() == 1f || p.gain() == 3f));
    }
}
