/**
 * Lucene vector formats and search for compressed embeddings; depends on Lucene only.
 *
 * <ul>
 *   <li>{@link dev.compress.codec.binary.BinaryHnswVectorsFormat} ({@code CompressBinaryHnsw}):
 *       1-bit sign codes (optionally centred on the segment mean, optionally with the float32
 *       vectors kept for rescoring) under a Lucene HNSW graph.
 *   <li>{@link dev.compress.codec.floats.FloatHnswVectorsFormat} ({@code CompressFloatHnsw}):
 *       Lucene's float32 HNSW with up to {@link dev.compress.codec.VectorLimits#MAX_DIMENSIONS}
 *       dimensions.
 *   <li>{@link dev.compress.codec.search.RescoringKnnQuery}: k nearest neighbours with per-segment
 *       oversampling, filters and optional exact rescoring.
 * </ul>
 *
 * Both formats are registered through Lucene SPI and read every per-field option from the index
 * files, so segments reopen by format name alone.
 */
package dev.compress.codec;
