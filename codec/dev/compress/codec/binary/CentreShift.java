package dev.compress.codec.binary;

/**
 * Moves a stored code's corrections ({@link SignBinarizer#corrections}) from the centre the code
 * was taken against to another centre, keeping the code itself. A merge of codes-only segments
 * has no floats to binarise again; this keeps each vector's norm and its estimate's scale, which
 * decoded vectors lose (they all have about the same norm, so Euclidean and inner-product fields
 * ranked no better than chance among documents of different lengths after a merge).
 *
 * <p>With {@code x} the vector, {@code s} its code's signs (+-1), old centre {@code c} and new
 * centre {@code c' = c + d}: {@code |x|^2} is stored and does not move; {@code <c', x> = <c, x> +
 * <d, c> + <d, x - c>}, whose last term is estimated as {@code a <s, d>} (the code's own estimator,
 * {@code a = |x - c|^2 / <s, x - c>}); and the new scale factor {@code |x - c'|^2 / <s, x - c'>}
 * uses {@code <s, x - c'> = <s, x - c> - <s, d>} (exact) and {@code <s, x - c> = |x - c|^2 / a}
 * with {@code |x - c|^2 = |x|^2 - 2 <c, x> + |c|^2} (exact). The estimator stays the RaBitQ form
 * {@code <x - c', y> ~ |x - c'|^2 <s, y> / <s, x - c'>}, which holds for any code, not only the
 * signs of {@code x - c'}.
 */
final class CentreShift {

  private final float[] shift;
  private final double shiftDotFrom;
  private final double fromSquaredNorm;
  private final double toSquaredNorm;

  CentreShift(float[] from, float[] to) {
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

  /** Rewrites {@code corrections}, those of {@code code} around the old centre, for the new one. */
  void apply(byte[] code, float[] corrections) {
    double signDotShift = 0;
    for (int i = 0; i < shift.length; i++) {
      signDotShift += SignBinarizer.bit(code, i) ? shift[i] : -shift[i];
    }
    double scaleFactor = corrections[0];
    double centreDot = corrections[1];
    double squaredNorm = corrections[2];
    double fromResidual = Math.max(0, squaredNorm - 2 * centreDot + fromSquaredNorm);
    double fromSignDot = scaleFactor == 0 ? 0 : fromResidual / scaleFactor;
    double toCentreDot = centreDot + shiftDotFrom + scaleFactor * signDotShift;
    double toResidual = Math.max(0, squaredNorm - 2 * toCentreDot + toSquaredNorm);
    double toSignDot = fromSignDot - signDotShift;
    corrections[0] = toSignDot > 0 ? (float) (toResidual / toSignDot) : 0f;
    corrections[1] = (float) toCentreDot;
  }
}
