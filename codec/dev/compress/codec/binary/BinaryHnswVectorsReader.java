package dev.compress.codec.binary;

import dev.compress.codec.search.MaskedVectorsReader;
import dev.compress.codec.search.QueryMask;
import java.io.IOException;
import java.util.Map;
import org.apache.lucene.codecs.KnnVectorsReader;
import org.apache.lucene.codecs.hnsw.HnswGraphProvider;
import org.apache.lucene.codecs.lucene99.Lucene99HnswVectorsReader;
import org.apache.lucene.index.ByteVectorValues;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.search.AcceptDocs;
import org.apache.lucene.search.KnnCollector;
import org.apache.lucene.search.VectorScorer;
import org.apache.lucene.util.Accountable;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.IOUtils;
import org.apache.lucene.util.hnsw.HnswGraph;
import org.apache.lucene.util.hnsw.HnswGraphSearcher;
import org.apache.lucene.util.hnsw.OrdinalTranslatedKnnCollector;
import org.apache.lucene.util.hnsw.RandomVectorScorer;

/**
 * Lucene's HNSW reader over {@link BinaryFlatVectorsReader}, plus masked search ({@link
 * MaskedVectorsReader}): the same graph walked with {@link MaskedSignCodeEstimator}'s scores.
 * Everything else is Lucene's reader.
 */
final class BinaryHnswVectorsReader extends KnnVectorsReader
    implements HnswGraphProvider, MaskedVectorsReader, Accountable {

  private final Lucene99HnswVectorsReader graphs;
  private final BinaryFlatVectorsReader flat;

  BinaryHnswVectorsReader(Lucene99HnswVectorsReader graphs, BinaryFlatVectorsReader flat) {
    this.graphs = graphs;
    this.flat = flat;
  }

  @Override
  public void searchMasked(String field, float[] maskedQuery, QueryMask mask, KnnCollector collector, AcceptDocs acceptDocs)
      throws IOException {
    RandomVectorScorer scorer = maskedRandomScorer(field, maskedQuery, mask);
    if (scorer == null || scorer.maxOrd() == 0 || collector.k() == 0) {
      return;
    }
    KnnCollector ords = new OrdinalTranslatedKnnCollector(collector, scorer::ordToDoc);
    Bits acceptOrds = scorer.getAcceptOrds(acceptDocs.bits());
    int size = scorer.maxOrd();
    int filtered = Math.min(size, acceptDocs.cost());
    HnswGraph graph = graphs.getGraph(field);
    // as Lucene's reader: a scan is cheaper when the graph would visit about as many nodes as pass the filter
    boolean scan = graph.size() == 0
        || collector.k() >= size
        || (acceptOrds != null && filtered <= HnswGraphSearcher.expectedVisitedNodes(collector.k(), size));
    if (scan == false) {
      HnswGraphSearcher.search(scorer, ords, graph, acceptOrds, filtered);
      return;
    }
    for (int ord = 0; ord < size && ords.earlyTerminated() == false; ord++) {
      if (acceptOrds == null || acceptOrds.get(ord)) {
        ords.incVisitedCount(1);
        ords.collect(ord, scorer.score(ord));
      }
    }
  }

  private RandomVectorScorer maskedRandomScorer(String field, float[] maskedQuery, QueryMask mask) throws IOException {
    BinarizedVectorValues codes = flat.codes(field);
    if (codes == null) {
      return null;
    }
    MaskedSignCodeEstimator estimator = new MaskedSignCodeEstimator(maskedQuery, mask, codes.centroid(), codes.similarity());
    return new RandomVectorScorer.AbstractRandomVectorScorer(codes) {
      @Override
      public float score(int ord) throws IOException {
        return estimator.score(estimator.quantizedSignDot(codes.vectorValue(ord)), codes.corrections(ord));
      }
    };
  }

  @Override
  public VectorScorer maskedScorer(String field, float[] maskedQuery, QueryMask mask) throws IOException {
    RandomVectorScorer scorer = maskedRandomScorer(field, maskedQuery, mask);
    if (scorer == null || scorer.maxOrd() == 0) {
      return null;
    }
    return new OrdinalVectorScorer(flat.codes(field).iterator(), scorer);
  }

  @Override
  public VectorScorer maskedRescorer(String field, float[] maskedQuery, QueryMask mask) throws IOException {
    FloatVectorValues floats = flat.storedFloats(field);
    if (floats != null) {
      // the zeroed query against exact floats is the masked similarity itself
      return floats.size() == 0 ? null : floats.scorer(maskedQuery);
    }
    BinarizedVectorValues codes = flat.codes(field);
    if (codes == null || codes.size() == 0) {
      return null;
    }
    MaskedSignCodeEstimator estimator = new MaskedSignCodeEstimator(maskedQuery, mask, codes.centroid(), codes.similarity());
    BinarizedVectorValues scored = codes.copy();
    return new OrdinalVectorScorer(scored.iterator(), new RandomVectorScorer.AbstractRandomVectorScorer(scored) {
      @Override
      public float score(int ord) throws IOException {
        return estimator.score(estimator.exactSignDot(scored.vectorValue(ord)), scored.corrections(ord));
      }
    });
  }

  @Override
  public HnswGraph getGraph(String field) throws IOException {
    return graphs.getGraph(field);
  }

  @Override
  public void checkIntegrity() throws IOException {
    graphs.checkIntegrity();
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
  public void search(String field, float[] target, KnnCollector knnCollector, AcceptDocs acceptDocs) throws IOException {
    graphs.search(field, target, knnCollector, acceptDocs);
  }

  @Override
  public void search(String field, byte[] target, KnnCollector knnCollector, AcceptDocs acceptDocs) throws IOException {
    graphs.search(field, target, knnCollector, acceptDocs);
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
  public long ramBytesUsed() {
    return graphs.ramBytesUsed();
  }

  @Override
  public void close() throws IOException {
    IOUtils.close(graphs);
  }
}
