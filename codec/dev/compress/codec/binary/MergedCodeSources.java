package dev.compress.codec.binary;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.codecs.KnnVectorsReader;
import org.apache.lucene.codecs.KnnVectorsWriter;
import org.apache.lucene.index.DocIDMerger;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.KnnVectorValues;
import org.apache.lucene.index.MergeState;
import org.apache.lucene.index.VectorSimilarityFunction;

/**
 * The records of a codes-only field's merge, in the merged segment's document order. A source
 * segment that kept only codes gives each code as it is, with its corrections moved to the merged
 * centre ({@link CentreShift}); a source whose values are not our decoded codes (a reader that
 * wraps them, such as a sorting reader in {@code addIndexes}) gives floats, binarised against that
 * centre, which for decoded floats loses each vector's length ({@link CentreShift} says why codes
 * are moved rather than decoded).
 */
final class MergedCodeSources {

    /**
     * Receives one record: its merged document, code, corrections and per-dimension spread (the
     * absolute deviation from the centre it stands for: for a kept code its source's decoding scale,
     * which is what it decodes to around any centre).
     */
    @FunctionalInterface
    interface RecordSink {
        void accept(int doc, byte[] code, float[] corrections, float[] spread) throws IOException;
    }

    private final FieldInfo field;
    private final MergeState mergeState;
    private final int dims;
    private final VectorSimilarityFunction similarity;

    MergedCodeSources(FieldInfo field, MergeState mergeState) {
        this.field = field;
        this.mergeState = mergeState;
        this.dims = field.getVectorDimension();
        this.similarity = field.getVectorSimilarityFunction();
    }

    /**
     * The merged centre: the mean over live vectors of each one's source centre (for a float source,
     * of the vector itself). A source centre is the mean of the vectors the source was written from,
     * deleted ones included; any centre serves the estimate, one near the vectors' mean serves it
     * best. Zero when there are no vectors.
     */
    float[] centre() throws IOException {
        float[] sum = new float[dims];
        float[] scratch = new float[dims];
        int count = 0;
        DocIDMerger<Source> merger = merger();
        for (Source source = merger.next(); source != null; source = merger.next(), count++) {
            float[] v = source.codes != null
                    ? source.codes.centroid()
                    : SignBinarizer.prepare(source.floatValue(), similarity, scratch);
            for (int i = 0; i < dims; i++) {
                sum[i] += v[i];
            }
        }
        for (int i = 0; count > 0 && i < dims; i++) {
            sum[i] /= count;
        }
        return sum;
    }

    /** Passes every live vector's record, taken around {@code centre}, to {@code sink}. */
    void forEach(float[] centre, RecordSink sink) throws IOException {
        byte[] code = new byte[SignBinarizer.codeBytes(dims)];
        float[] corrections = new float[SignBinarizer.CORRECTIONS];
        float[] scratch = new float[dims];
        float[] spread = new float[dims];
        DocIDMerger<Source> merger = merger();
        for (Source source = merger.next(); source != null; source = merger.next()) {
            if (source.codes != null) {
                int ord = source.iterator.index();
                System.arraycopy(source.codes.vectorValue(ord), 0, code, 0, code.length);
                System.arraycopy(source.codes.corrections(ord), 0, corrections, 0, corrections.length);
                source.shiftTo(centre).apply(code, corrections);
                sink.accept(source.mappedDocID, code, corrections, source.codes.scale());
            } else {
                float[] p = SignBinarizer.prepare(source.floatValue(), similarity, scratch);
                SignBinarizer.binarize(p, centre, code);
                SignBinarizer.corrections(p, centre, corrections);
                for (int i = 0; i < dims; i++) {
                    spread[i] = Math.abs(p[i] - centre[i]);
                }
                sink.accept(source.mappedDocID, code, corrections, spread);
            }
        }
    }

    /** A fresh walk over the sources (each pass needs its own iterators). */
    private DocIDMerger<Source> merger() throws IOException {
        List<Source> sources = new ArrayList<>();
        for (int i = 0; i < mergeState.knnVectorsReaders.length; i++) {
            KnnVectorsReader reader = mergeState.knnVectorsReaders[i];
            if (reader == null
                    || KnnVectorsWriter.MergedVectorValues.hasVectorValues(mergeState.fieldInfos[i], field.name)
                            == false) {
                continue;
            }
            FloatVectorValues values = reader.getFloatVectorValues(field.name);
            if (values != null) {
                sources.add(new Source(mergeState.docMaps[i], values));
            }
        }
        return DocIDMerger.of(sources, mergeState.needsIndexSort);
    }

    /** One source segment's vectors, with its codes when it kept only codes. */
    private static final class Source extends DocIDMerger.Sub {
        final FloatVectorValues values;
        final BinarizedVectorValues codes;
        final KnnVectorValues.DocIndexIterator iterator;
        private CentreShift shift;

        Source(MergeState.DocMap docMap, FloatVectorValues values) {
            super(docMap);
            this.values = values;
            this.codes = values instanceof DecodedFloatVectorValues decoded ? decoded.codes() : null;
            this.iterator = values.iterator();
        }

        @Override
        public int nextDoc() throws IOException {
            return iterator.nextDoc();
        }

        float[] floatValue() throws IOException {
            return values.vectorValue(iterator.index());
        }

        /** The shift from this source's centre to {@code centre}, made once per merge pass. */
        CentreShift shiftTo(float[] centre) {
            if (shift == null) {
                shift = new CentreShift(codes.centroid(), centre);
            }
            return shift;
        }
    }
}
