package dev.compress.codec.search;

import dev.compress.codec.HnswParameters;
import dev.compress.codec.binary.BinaryCodeOptions;
import dev.compress.codec.binary.BinaryHnswVectorsFormat;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.join.QueryBitSetProducer;
import org.apache.lucene.store.Directory;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.tests.util.TestUtil;
import org.apache.lucene.util.VectorUtil;

/**
 * Rescored search on the vectors of nested (child) documents: with a budget that makes every parent
 * a candidate, the hits are exactly the k parents whose best child (live, passing the filter, with a
 * vector) scores highest on the indexed floats, each as that child with its exact score; expanded,
 * every such child of those parents, each with its exact score.
 */
public class TestDiversifiedCandidateKnnQuery extends LuceneTestCase {

    private static final String FIELD = "v";

    public void testEveryParentACandidateGivesTheExactBestParents() throws IOException {
        Random random = random();
        for (VectorSimilarityFunction similarity : VectorSimilarityFunction.values()) {
            int dims = 4 + random.nextInt(60);
            int parents = 40 + random.nextInt(80);
            Map<Integer, float[]> vectors = new HashMap<>(); // child id -> vector
            Map<Integer, Integer> parentOf = new HashMap<>();
            Map<Integer, Boolean> tagged = new HashMap<>();
            List<Integer> deleted = new ArrayList<>();
            try (Directory dir = newDirectory()) {
                IndexWriterConfig config = new IndexWriterConfig()
                        .setCodec(TestUtil.alwaysKnnVectorsFormat(new BinaryHnswVectorsFormat(
                                HnswParameters.DEFAULT, new BinaryCodeOptions(true, random.nextBoolean()))))
                        .setMaxBufferedDocs(50 + random.nextInt(200));
                int id = 0;
                try (IndexWriter writer = new IndexWriter(dir, config)) {
                    for (int p = 0; p < parents; p++) {
                        List<Document> block = new ArrayList<>();
                        int children = random.nextInt(6);
                        for (int c = 0; c < children; c++, id++) {
                            Document child = new Document();
                            child.add(new StringField("id", Integer.toString(id), Field.Store.YES));
                            if (random.nextInt(8) != 0) { // some chunks have no vector
                                float[] v = new float[dims];
                                for (int i = 0; i < dims; i++) {
                                    v[i] = (float) random.nextGaussian() + 0.1f;
                                }
                                if (similarity == VectorSimilarityFunction.DOT_PRODUCT) {
                                    VectorUtil.l2normalize(v);
                                }
                                child.add(new KnnFloatVectorField(FIELD, v, similarity));
                                vectors.put(id, v);
                                parentOf.put(id, p);
                            }
                            boolean tag = random.nextBoolean();
                            tagged.put(id, tag);
                            child.add(new StringField("tag", tag ? "yes" : "no", Field.Store.NO));
                            block.add(child);
                        }
                        Document parent = new Document();
                        parent.add(new StringField("type", "parent", Field.Store.NO));
                        parent.add(new StoredField("parent", p));
                        block.add(parent);
                        writer.addDocuments(block);
                    }
                    for (int child : vectors.keySet()) {
                        if (random.nextInt(10) == 0) {
                            writer.deleteDocuments(new Term("id", Integer.toString(child)));
                            deleted.add(child);
                        }
                    }
                    if (random.nextBoolean()) {
                        writer.forceMerge(1);
                    }
                }
                deleted.forEach(vectors::remove);
                try (DirectoryReader reader = DirectoryReader.open(dir)) {
                    IndexSearcher searcher = newSearcher(reader);
                    for (int query = 0; query < 10; query++) {
                        float[] target = vectors.values().iterator().next().clone();
                        for (int i = 0; i < dims; i++) {
                            target[i] += (float) random.nextGaussian();
                        }
                        if (similarity == VectorSimilarityFunction.DOT_PRODUCT) {
                            VectorUtil.l2normalize(target);
                        }
                        boolean filtered = random.nextBoolean();
                        Query filter = filtered ? new TermQuery(new Term("tag", "yes")) : null;
                        int k = 1 + random.nextInt(8);
                        // children that may match, best first
                        List<Integer> matching = vectors.keySet().stream()
                                .filter(c -> filtered == false || tagged.get(c))
                                .sorted(Comparator.comparingDouble(
                                        (Integer c) -> -similarity.compare(target, vectors.get(c))))
                                .toList();
                        List<Integer> bestParents = matching.stream()
                                .map(parentOf::get)
                                .distinct()
                                .limit(k)
                                .toList();
                        for (boolean expand : new boolean[] {false, true}) {
                            ParentJoin join = new ParentJoin(
                                    new QueryBitSetProducer(new TermQuery(new Term("type", "parent"))), expand);
                            ScoreDoc[] hits = searcher.search(
                                            new RescoringKnnQuery(FIELD, target, k, 4 * parents, filter, true, join),
                                            1000)
                                    .scoreDocs;
                            List<Integer> expected = expand
                                    ? matching.stream()
                                            .filter(c -> bestParents.contains(parentOf.get(c)))
                                            .toList()
                                    : bestParents.stream()
                                            .map(p -> matching.stream()
                                                    .filter(c -> parentOf.get(c) == p)
                                                    .findFirst()
                                                    .orElseThrow())
                                            .toList();
                            List<Integer> found = new ArrayList<>();
                            for (ScoreDoc hit : hits) {
                                int child = Integer.parseInt(searcher.storedFields()
                                        .document(hit.doc)
                                        .get("id"));
                                found.add(child);
                                float exact = similarity.compare(target, vectors.get(child));
                                assertEquals(similarity + " child " + child, exact, hit.score, 4 * Math.ulp(exact));
                            }
                            assertEquals(
                                    similarity + ", k " + k + ", expand " + expand + ", filtered " + filtered,
                                    expected.stream().sorted().toList(),
                                    found.stream().sorted().toList());
                            assertEquals(
                                    "best first",
                                    Arrays.stream(hits)
                                            .map(h -> h.score)
                                            .sorted(Comparator.reverseOrder())
                                            .toList(),
                                    Arrays.stream(hits).map(h -> h.score).toList());
                        }
                    }
                }
            }
        }
    }
}
