package dev.compress.plugin.query;

import static org.junit.Assert.assertEquals;

import java.util.stream.IntStream;
import org.junit.Test;

public class ScoreOriginTests {

    /** A mask of thousands of dimensions is listed by its first 32 and a count, where every hit once listed all. */
    @Test
    public void aLongMaskIsListedByItsFirstDimensions() {
        assertEquals("[1, 4, 7]", ScoreOrigin.listed(new int[] {1, 4, 7}));
        int[] all32 = IntStream.range(0, 32).toArray();
        assertEquals(java.util.Arrays.toString(all32), ScoreOrigin.listed(all32));
        String listed =
                ScoreOrigin.listed(IntStream.range(0, 2048).map(i -> 2 * i).toArray());
        assertEquals(
                "[0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32, 34, 36, 38, 40, 42, 44, 46, 48, 50, 52,"
                        + " 54, 56, 58, 60, 62, ... and 2016 more]",
                listed);
    }
}
