package dev.compress.codec.binary;

import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.util.Bits;

/**
 * Float vectors of a binary field whose ordinals are those of its codes: dimension, size and the
 * ordinal-to-document mapping come from {@link #codes}.
 */
abstract class CodeOrderedFloatVectorValues extends FloatVectorValues {

    protected final BinarizedVectorValues codes;

    CodeOrderedFloatVectorValues(BinarizedVectorValues codes) {
        this.codes = codes;
    }

    @Override
    public int dimension() {
        return codes.dimension();
    }

    @Override
    public int size() {
        return codes.size();
    }

    @Override
    public int ordToDoc(int ord) {
        return codes.ordToDoc(ord);
    }

    @Override
    public Bits getAcceptOrds(Bits acceptDocs) {
        return codes.getAcceptOrds(acceptDocs);
    }

    @Override
    public DocIndexIterator iterator() {
        return codes.iterator();
    }
}
