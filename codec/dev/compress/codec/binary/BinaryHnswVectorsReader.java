package dev.compress.codec.binary;

import java.io.IOException;
import java.util.Map;
import org.apache.lucene.codecs.KnnVectorsReader;
import org.apache.lucene.codecs.hnsw.FlatVectorsReader;
import org.apache.lucene.codecs.hnsw.HnswGraphProvider;
import org.apache.lucene.codecs.lucene99.Lucene99HnswVectorsReader;
import org.apache.lucene.index.ByteVectorValues;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.search.AcceptDocs;
import org.apache.lucene.search.KnnCollector;
import org.apache.lucene.search.knn.KnnSearchStrategy;
import org.apache.lucene.util.FixedBitSet;
import org.apache.lucene.util.hnsw.HnswGraph;
import org.apache.lucene.util.hnsw.HnswGraphSearcher;
import org.apache.lucene.util.hnsw.NeighborQueue;
import org.apache.lucene.util.hnsw.OrdinalTranslatedKnnCollector;
import org.apache.lucene.util.hnsw.RandomVectorScorer;

/**
 * Lucene's HNSW reader for {@link BinaryHnswVectorsFormat}, with one change to float-query search:
 * where Lucene would walk the graph with its plain {@link HnswGraphSearcher} (no seeds, no
 * filtered-search strategy, a graph larger than the expected visits), the same searcher runs with
 * a {@link FixedBitSet} for the visited nodes instead of Lucene's {@code SparseFixedBitSet}. Lucene
 * sizes that choice for float32 vectors, where scoring a node dwarfs marking it; a walk on 64-byte
 * codes scores a node in a fraction of that, and the sparse set's block lookups became a large
 * share of a million-vector query's CPU. Clearing a bit per vector is cheap next to that up to
 * {@link #DENSE_VISITS_RATIO} times the expected visits. Everything else, including seeded and
 * exhaustive searches and those under a filtered-search strategy, is Lucene's reader.
 */
final class BinaryHnswVectorsReader extends KnnVectorsReader implements HnswGraphProvider {

    /**
     * Graph size per expected visit up to which a dense visited set is used. The sparse set costs a
     * block lookup for every visited node; the dense set costs one clear of its words per search,
     * which is a small fraction of a lookup per graph node (64 nodes per word). The dense set pays as
     * long as the graph is less than several thousand times the expected visits; 4,096 stays below
     * that break-even. The walk's CPU time on a million-vector graph: {@code bench/run full walk}
     * after a {@code codec} run that kept its indexes ({@code docs/benchmarks.md}).
     */
    static final int DENSE_VISITS_RATIO = 4096;

    private final Lucene99HnswVectorsReader graphs;
    private final FlatVectorsReader flat;

    BinaryHnswVectorsReader(Lucene99HnswVectorsReader graphs, FlatVectorsReader flat) {
        this.graphs = graphs;
        this.flat = flat;
    }

    @Override
    public void search(String field, float[] target, KnnCollector collector, AcceptDocs acceptDocs) throws IOException {
        HnswGraph graph = graphs.getGraph(field);
        if (denseWalk(collector, acceptDocs, graph.size()) == false) {
            graphs.search(field, target, collector, acceptDocs);
            return;
        }
        RandomVectorScorer scorer = flat.getRandomVectorScorer(field, target);
        new HnswGraphSearcher(new NeighborQueue(collector.k(), true), new FixedBitSet(graph.size()))
                .search(
                        new OrdinalTranslatedKnnCollector(collector, scorer::ordToDoc),
                        scorer,
                        graph,
                        scorer.getAcceptOrds(acceptDocs.bits()));
    }

    /**
     * Whether a search of a graph of {@code size} nodes takes the dense walk: Lucene's reader would
     * walk it with its plain searcher (k below the graph size, the expected visits below the accepted
     * docs, no seeds, no filtered-search strategy for the accepted share), and the graph is at most
     * {@link #DENSE_VISITS_RATIO} times the expected visits.
     */
    static boolean denseWalk(KnnCollector collector, AcceptDocs acceptDocs, int size) throws IOException {
        int k = collector.k();
        if (k == 0 || k >= size || collector.getSearchStrategy() instanceof KnnSearchStrategy.Seeded) {
            return false;
        }
        int expectedVisits = HnswGraphSearcher.expectedVisitedNodes(k, size);
        int accepted = Math.min(acceptDocs.cost(), size);
        boolean filteredStrategy = acceptDocs.bits() != null
                && collector.getSearchStrategy() instanceof KnnSearchStrategy.Hnsw hnsw
                && hnsw.useFilteredSearch(accepted / (float) size);
        return expectedVisits < accepted && expectedVisits >= size / DENSE_VISITS_RATIO && filteredStrategy == false;
    }

    @Override
    public void search(String field, byte[] target, KnnCollector collector, AcceptDocs acceptDocs) throws IOException {
        graphs.search(field, target, collector, acceptDocs);
    }

    @Override
    public HnswGraph getGraph(String field) throws IOException {
        return graphs.getGraph(field);
    }

    @Override
    public FloatVectorValues getFloatVectorValues(String field) throws IOException {
        return graphs.getFloatVectorValues(field);
    }

    @Override
    public ByteVectorValues getByteVectorValues(String field) throws IOException {
        return graphs.getByteVectorValues(field);
    }

    @Override
    public void checkIntegrity() throws IOException {
        graphs.checkIntegrity();
    }

    @Override
    public KnnVectorsReader getMergeInstance() throws IOException {
        return graphs.getMergeInstance();
    }

    @Override
    public void finishMerge() throws IOException {
        graphs.finishMerge();
    }

    @Override
    public Map<String, Long> getOffHeapByteSize(FieldInfo fieldInfo) {
        return graphs.getOffHeapByteSize(fieldInfo);
    }

    @Override
    public void close() throws IOException {
        graphs.close();
    }

    @Override
    public String toString() {
        return "BinaryHnswVectorsReader(" + graphs + ")";
    }
}
