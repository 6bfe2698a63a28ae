package dev.compress.training.model;

import java.util.Arrays;

/** A named float32 tensor, row-major. */
public record Tensor(String name, int[] shape, float[] data) {

    public Tensor {
        shape = shape.clone();
        long n = 1;
        for (int d : shape) {
            if (d <= 0) {
                throw new IllegalArgumentException(
                        "tensor '" + name + "' has a non-positive dimension in " + Arrays.toString(shape));
            }
            n *= d;
        }
        if (n != data.length) {
            throw new IllegalArgumentException("tensor '" + name + "' of shape " + Arrays.toString(shape) + " needs "
                    + n + " values, got " + data.length);
        }
    }

    @Override
    public int[] shape() {
        return shape.clone();
    }
}
