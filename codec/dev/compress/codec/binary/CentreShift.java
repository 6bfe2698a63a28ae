package dev.compress.codec.binary;

/**
 * Moves a stored code's corrections ({@link SignBinarizer#corrections}) from the centre the code
 * was taken against to another centre, keeping the code itself. A merge of codes-only segments
 * has no floats to binarise again; this keeps each vector's norm and its estimate's scale, which
 * decoded vectors lose (they all have about the same norm, so Euclidean and inner-product fields
 * lost most of their ranking among documents of different lengths after a merge).
 *
 * <p>With {@code x} the vector, {@code s} its code's signs (+-1), old centre {@code c} and new
 * centre {@code c' = c + d}: {@code |x|^2} is stored and does not move; {@code <c', x> = <c, x> +
 * <d, c> + <d, x - c>}, whose last term is estimated as {@code a <s, d>} (the code's own estimator,
 * {@code a = |x - c|^2 / <s, x - c>}); and the new scale factor {@code |x - c'|^2 / <s, x - c'>}
 * uses {@code <s, x - c'> = <s, x - c> - <s, d>} (exact) and {@code <s, x - c> = |x - c|^2 / a}
 * with {@code |x - c|^2 = |x|^2 - 2 <c, x> + |c|^2} (exact). The estimator stays the RaBitQ form
 * {@code <x - c', y> ~ |x - c'|^2 <s, y> / <s, x - c'>}, which holds for any code, not only the
 * signs of {@code x - c'}; it is bounded by {@code a <= |x - c'|} (true of a sign code, whose
 * {@code <s, r> = |r|_1 >= |r|_2}), so that a code that fits its vector badly cannot get an
 * unbounded factor. A factor of 0 means the vector is its centre (a segment of one vector, or of
 * identical ones; or, after a move, as near it as the estimate can tell): that vector is known, so
 * it is binarised again around the new centre.
 */
final class CentreShift {

    private final float[] from;
    private final float[] to;
    private final float[] shift;
    private final double shiftDotFrom;
    private final double fromSquaredNorm;
    private final double toSquaredNorm;

    CentreShift(float[] from, float[] to) {
        this.from = from;
        this.to = to;
        this.shift = new float[from.length];
        double shiftDotFrom = 0, fromSquaredNorm = 0, toSquaredNorm = 0;
        for (int i = 0; i < from.length; i++) {
            shift[i] = to[i] - from[i];
            shiftDotFrom += (double) shift[i] * from[i];
            fromSquaredNorm += (double) from[i] * from[i];
            toSquaredNorm += (double) to[i] * to[i];
        }
        this.shiftDotFrom = shiftDotFrom;
        this.fromSquaredNorm = fromSquaredNorm;
        this.toSquaredNorm = toSquaredNorm;
    }

    /**
     * Rewrites {@code corrections}, those of {@code code} around the old centre, for the new one;
     * rewrites {@code code} too for a vector that is the old centre.
     */
    void apply(byte[] code, float[] corrections) {
        if (corrections[0] == 0) {
            SignBinarizer.binarize(from, to, code);
            SignBinarizer.corrections(from, to, corrections);
            return;
        }
        double signDotShift = 0;
        for (int i = 0; i < shift.length; i++) {
            signDotShift += SignBinarizer.bit(code, i) ? shift[i] : -shift[i];
        }
        double scaleFactor = corrections[0];
        double centreDot = corrections[1];
        double squaredNorm = corrections[2];
        double fromResidual = Math.max(0, squaredNorm - 2 * centreDot + fromSquaredNorm);
        double fromSignDot = fromResidual / scaleFactor;
        double toCentreDot = centreDot + shiftDotFrom + scaleFactor * signDotShift;
        double toResidual = Math.max(0, squaredNorm - 2 * toCentreDot + toSquaredNorm);
        double toSignDot = Math.max(fromSignDot - signDotShift, Math.sqrt(toResidual));
        corrections[0] = toResidual == 0 ? 0f : (float) (toResidual / toSignDot);
        corrections[1] = (float) toCentreDot;
    }
}
