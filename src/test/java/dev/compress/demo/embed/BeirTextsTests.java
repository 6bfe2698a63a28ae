package dev.compress.demo.embed;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

public class BeirTextsTests {

    @Rule
    public TemporaryFolder temp = new TemporaryFolder();

    @Test
    public void documentIsTitleSpaceTextOrTextAloneFromAGzippedCorpus() throws IOException {
        Path dir = temp.getRoot().toPath();
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(dir.resolve("corpus.jsonl.gz")))) {
            out.write("""
          {"_id": "1", "title": "Title", "text": "Body.", "metadata": {}}
          {"_id": "2", "title": "", "text": "Only body."}

          {"_id": "3", "text": "No title field."}
          """.getBytes(StandardCharsets.UTF_8));
        }
        BeirTexts corpus = BeirTexts.corpus(dir);
        assertEquals(List.of("1", "2", "3"), corpus.ids());
        assertEquals(List.of("Title Body.", "Only body.", "No title field."), corpus.texts());
    }

    @Test
    public void queriesAreTheirTextAndALineWithoutIdIsAnError() throws IOException {
        Path dir = temp.getRoot().toPath();
        Files.writeString(dir.resolve("queries.jsonl"), "{\"_id\": \"q\", \"text\": \"why?\"}\n");
        assertEquals(List.of("why?"), BeirTexts.queries(dir).texts());
        Files.writeString(dir.resolve("queries.jsonl"), "{\"text\": \"why?\"}\n");
        IOException e = assertThrows(IOException.class, () -> BeirTexts.queries(dir));
        assertEquals(dir.resolve("queries.jsonl") + " line 1 has no _id", e.getMessage());
    }
}
