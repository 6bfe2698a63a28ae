package dev.compress.codec.search;

import java.io.IOException;
import org.apache.lucene.codecs.KnnVectorsReader;
import org.apache.lucene.codecs.perfield.PerFieldKnnVectorsFormat;
import org.apache.lucene.index.CodecReader;
import org.apache.lucene.index.FilterLeafReader;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.search.AcceptDocs;
import org.apache.lucene.search.KnnCollector;
import org.apache.lucene.search.VectorScorer;

/**
 * A vectors reader whose search can be restricted to a {@link QueryMask}'s dimensions beyond
 * zeroing the query: formats that score through an estimate over all dimensions (sign codes) need
 * the mask itself to leave the dropped dimensions out. Formats that score the float query exactly
 * need nothing more than the zeroed query and do not implement this.
 *
 * <p>Every method takes the query already masked ({@link QueryMask#apply}).
 */
public interface MaskedVectorsReader {

  /** Like {@link KnnVectorsReader#search(String, float[], KnnCollector, AcceptDocs)}, scored on the kept dimensions. */
  void searchMasked(String field, float[] maskedQuery, QueryMask mask, KnnCollector collector, AcceptDocs acceptDocs)
      throws IOException;

  /** Scores documents as {@link #searchMasked} does (for exact search when a filter leaves few documents); null without vectors. */
  VectorScorer maskedScorer(String field, float[] maskedQuery, QueryMask mask) throws IOException;

  /** Scores documents with the best fidelity available, on the kept dimensions (rescoring); null without vectors. */
  VectorScorer maskedRescorer(String field, float[] maskedQuery, QueryMask mask) throws IOException;

  /**
   * The masked reader behind {@code field} of {@code reader}, or null when the field's format has
   * none. Unwraps filter readers to the codec's per-field reader; callers check that the field is
   * visible through {@code reader} first, so wrappers that hide fields are honoured.
   */
  static MaskedVectorsReader find(LeafReader reader, String field) {
    LeafReader unwrapped = FilterLeafReader.unwrap(reader);
    if (unwrapped instanceof CodecReader codecReader) {
      KnnVectorsReader vectors = codecReader.getVectorReader();
      if (vectors instanceof PerFieldKnnVectorsFormat.FieldsReader perField) {
        vectors = perField.getFieldReader(field);
      }
      if (vectors instanceof MaskedVectorsReader masked) {
        return masked;
      }
    }
    return null;
  }
}
