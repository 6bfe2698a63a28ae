package dev.compress.training.data;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import dev.compress.demo.embed.BeirTexts;
import dev.compress.training.TestData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.Test;

public class BeirDataTests {

    @Test
    public void scifactJoinsJudgmentsToVectors() throws IOException {
        EmbeddedDataset ds = TestData.dataset("scifact", "bge-small-en-v1.5");
        assertEquals(384, ds.dim());
        assertEquals(5183, ds.corpus().size());
        assertEquals(1109, ds.queries().size());
        Path beir = TestData.dataDir().resolve("beir/scifact");
        assertEquals(BeirTexts.corpus(beir).ids(), ds.corpus().ids());
        assertEquals(BeirTexts.queries(beir).ids(), ds.queries().ids());

        Qrels test = ds.beir().qrels("test");
        assertEquals(300, test.queryIds().size());
        assertEquals(339, test.judgmentCount());
        Qrels train = ds.beir().qrels("train");
        assertEquals(809, train.queryIds().size());
        assertEquals(919, train.judgmentCount());
        // the CRLF and header are handled: first data row of test.tsv is "1 31715818 1"
        assertEquals(Integer.valueOf(1), test.judgments("1").get("31715818"));

        EvalSet set = ds.evalSet("test");
        assertEquals(300, set.queries().size());
        for (String q : test.queryIds()) {
            for (String doc : test.relevant(q)) {
                assertTrue(doc, ds.corpus().rowOf(doc) >= 0);
            }
        }
        // rows are L2-normalised per the README
        float[] v = ds.corpus().row(17);
        double norm = 0;
        for (float x : v) {
            norm += x * x;
        }
        assertEquals(1.0, norm, 1e-4);
    }

    @Test
    public void nfcorpusGradedJudgments() throws IOException {
        EmbeddedDataset ds = TestData.dataset("nfcorpus", "bge-small-en-v1.5");
        Qrels dev = ds.beir().qrels("dev");
        assertEquals(324, dev.queryIds().size());
        assertEquals(11385, dev.judgmentCount());
        long twos = dev.queryIds().stream()
                .flatMap(q -> dev.judgments(q).values().stream())
                .filter(r -> r == 2)
                .count();
        assertEquals(521, twos);
    }

    @Test
    public void qrelsReaderStripsCrlfAndHeader() throws IOException {
        Path f = Files.createTempFile("qrels", ".tsv");
        try {
            Files.writeString(f, "query-id\tcorpus-id\tscore\r\nq1\td1\t2\r\nq1\td2\t0\r\nq2\td3\t1\r\n");
            Qrels q = Qrels.readTsv(f);
            assertEquals(2, q.queryIds().size());
            assertEquals(Integer.valueOf(2), q.judgments("q1").get("d1"));
            assertEquals(List.of("d1"), q.relevant("q1"));
        } finally {
            Files.delete(f);
        }
    }

    @Test
    public void vectorFileRejectsRaggedSize() throws IOException {
        Path dir = Files.createTempDirectory("vec");
        try {
            Files.write(dir.resolve("x.f32"), new byte[4 * 5]);
            Files.writeString(dir.resolve("x.ids"), "a\nb\n");
            IOException e = org.junit.Assert.assertThrows(IOException.class, () -> VectorFiles.read(dir, "x"));
            assertTrue(e.getMessage(), e.getMessage().contains("not a whole number"));
        } finally {
            Files.deleteIfExists(dir.resolve("x.f32"));
            Files.deleteIfExists(dir.resolve("x.ids"));
            Files.delete(dir);
        }
    }
}
