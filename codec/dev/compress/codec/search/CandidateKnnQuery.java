package dev.compress.codec.search;

import java.io.IOException;
import java.util.Arrays;
import java.util.Comparator;
import dev.compress.codec.binary.BinaryHnswVectorsFormat;
import java.util.List;
import org.apache.lucene.codecs.perfield.PerFieldKnnVectorsFormat;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.QueryTimeout;
import org.apache.lucene.search.AcceptDocs;
import org.apache.lucene.search.ConjunctionUtils;
import org.apache.lucene.search.HitQueue;
import org.apache.lucene.search.KnnCollector;
import org.apache.lucene.search.TopDocsCollector;
import org.apache.lucene.search.TotalHits;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TimeLimitingKnnCollectorManager;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.TopKnnCollector;
import org.apache.lucene.search.VectorScorer;
import org.apache.lucene.search.Weight;
import org.apache.lucene.search.knn.KnnCollectorManager;

/**
 * The first phase of {@link RescoringKnnQuery}: Lucene's float kNN query (filter, deleted
 * documents, exact fallback, timeouts) asked for {@code numCandidates} per segment, with each
 * segment's candidates rescored and cut to k before segments are merged. Rescoring per segment,
 * rather than after a global cut, keeps every segment's candidates in play and never compares
 * approximate scores of segments with different centres.
 */
final class CandidateKnnQuery extends KnnFloatVectorQuery {

  private final int finalK;
  private final boolean rescore;
  private final QueryMask mask;

  /** With a {@code mask}, {@code target} is already masked ({@link QueryMask#apply}). */
  CandidateKnnQuery(String field, float[] target, int numCandidates, org.apache.lucene.search.Query filter,
      int finalK, boolean rescore, QueryMask mask) {
    super(field, target, numCandidates, filter);
    this.finalK = finalK;
    this.rescore = rescore;
    this.mask = mask;
  }

  /**
   * The field's masked reader when this query has a mask and the field's format needs it. A binary
   * field whose reader cannot be reached fails rather than silently scoring on every bit.
   */
  private MaskedVectorsReader maskedReader(LeafReaderContext context) {
    FieldInfo info = mask == null ? null : context.reader().getFieldInfos().fieldInfo(field);
    if (info == null) {
      return null;
    }
    MaskedVectorsReader masked = MaskedVectorsReader.find(context.reader(), field);
    if (masked == null && BinaryHnswVectorsFormat.NAME.equals(info.getAttribute(PerFieldKnnVectorsFormat.PER_FIELD_FORMAT_KEY))) {
      throw new IllegalStateException("field [" + field + "] holds sign codes but its reader is wrapped out of reach of a masked search");
    }
    return masked;
  }

  @Override
  protected TopDocs approximateSearch(LeafReaderContext context, AcceptDocs acceptDocs, int visitedLimit,
      KnnCollectorManager collectors) throws IOException {
    MaskedVectorsReader masked = maskedReader(context);
    if (masked == null) {
      return super.approximateSearch(context, acceptDocs, visitedLimit, collectors);
    }
    KnnCollector collector = collectors.newCollector(visitedLimit, searchStrategy, context);
    masked.searchMasked(field, target, mask, collector, acceptDocs);
    TopDocs results = collector.topDocs();
    return results != null ? results : TopDocsCollector.EMPTY_TOPDOCS;
  }

  /** Lucene's exact search scores through a package-private hook: with a mask, score here instead. */
  @Override
  protected TopDocs exactSearch(LeafReaderContext context, DocIdSetIterator acceptIterator, QueryTimeout timeout)
      throws IOException {
    MaskedVectorsReader masked = maskedReader(context);
    if (masked == null) {
      return super.exactSearch(context, acceptIterator, timeout);
    }
    VectorScorer scorer = masked.maskedScorer(field, target, mask);
    if (scorer == null) {
      return TopDocsCollector.EMPTY_TOPDOCS;
    }
    int queueSize = (int) Math.min(k, acceptIterator.cost());
    HitQueue queue = new HitQueue(Math.max(1, queueSize), false);
    TotalHits.Relation relation = TotalHits.Relation.EQUAL_TO;
    DocIdSetIterator vectors = scorer.iterator();
    DocIdSetIterator both = ConjunctionUtils.intersectIterators(List.of(acceptIterator, vectors));
    long visited = 0;
    for (int doc = both.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = both.nextDoc()) {
      if (timeout != null && (visited & 0xFF) == 0 && timeout.shouldExit()) {
        relation = TotalHits.Relation.GREATER_THAN_OR_EQUAL_TO;
        break;
      }
      visited++;
      queue.insertWithOverflow(new ScoreDoc(doc, scorer.score())); // leaf doc ids, as Lucene's exact search
    }
    ScoreDoc[] hits = new ScoreDoc[queue.size()];
    for (int i = hits.length - 1; i >= 0; i--) {
      hits[i] = queue.pop();
    }
    return new TopDocs(new TotalHits(visited, relation), hits);
  }

  /**
   * Every segment collects the full {@code numCandidates}: Lucene's optimistic collection would
   * shrink small segments' share, which the rescoring phase cannot recover.
   */
  @Override
  protected KnnCollectorManager getKnnCollectorManager(int k, IndexSearcher searcher) {
    return (visitedLimit, strategy, context) -> new TopKnnCollector(k, visitedLimit, strategy);
  }

  @Override
  protected TopDocs searchLeaf(
      LeafReaderContext context, Weight filterWeight, TimeLimitingKnnCollectorManager collectors)
      throws IOException {
    TopDocs candidates = super.searchLeaf(context, filterWeight, collectors);
    ScoreDoc[] hits = rescore ? rescored(context, candidates.scoreDocs) : candidates.scoreDocs;
    Arrays.sort(hits, Comparator.comparingDouble((ScoreDoc hit) -> -hit.score).thenComparingInt(hit -> hit.doc));
    return new TopDocs(candidates.totalHits, Arrays.copyOf(hits, Math.min(finalK, hits.length)));
  }

  /** The candidates (global doc ids) with full-fidelity scores. */
  private ScoreDoc[] rescored(LeafReaderContext context, ScoreDoc[] candidates) throws IOException {
    if (candidates.length == 0) {
      return candidates;
    }
    MaskedVectorsReader masked = maskedReader(context);
    VectorScorer scorer = masked != null
        ? masked.maskedRescorer(field, target, mask)
        : context.reader().getFloatVectorValues(field).rescorer(target);
    DocIdSetIterator docs = scorer.iterator();
    ScoreDoc[] byDoc = candidates.clone();
    Arrays.sort(byDoc, Comparator.comparingInt(hit -> hit.doc));
    ScoreDoc[] rescored = new ScoreDoc[byDoc.length];
    for (int i = 0; i < byDoc.length; i++) {
      int doc = byDoc[i].doc - context.docBase;
      if (docs.advance(doc) != doc) {
        throw new IllegalStateException("candidate " + doc + " has no vector in field " + field);
      }
      rescored[i] = new ScoreDoc(byDoc[i].doc, scorer.score());
    }
    return rescored;
  }

  @Override
  protected TopDocs mergeLeafResults(TopDocs[] perLeafResults) {
    return TopDocs.merge(finalK, perLeafResults);
  }
}
