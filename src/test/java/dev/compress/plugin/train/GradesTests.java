package dev.compress.plugin.train;

import java.util.Map;
import org.opensearch.test.OpenSearchTestCase;

/** Index rows and Workbench lists read ratings by one rule: numbers or numeric strings, rounded. */
public class GradesTests extends OpenSearchTestCase {

    public void testNumbersAndNumericStringsRoundToWholeGrades() {
        assertEquals(Integer.valueOf(3), Grades.wholeGrade(2.7));
        assertEquals(Integer.valueOf(2), Grades.wholeGrade(2));
        assertEquals(Integer.valueOf(3), Grades.wholeGrade("3.000"));
        assertEquals(Integer.valueOf(1), Grades.wholeGrade(" 1 "));
        assertEquals(Integer.valueOf(1), Grades.wholeGrade(Grades.LOWEST_RELEVANT));
        assertEquals(Integer.valueOf(0), Grades.wholeGrade(0.4f));
    }

    public void testGradesAboveTheHighestAreRefused() {
        assertEquals(Integer.valueOf(Grades.HIGHEST), Grades.wholeGrade(Grades.HIGHEST + 0.4));
        IllegalArgumentException e = expectThrows(IllegalArgumentException.class, () -> Grades.wholeGrade(200));
        assertEquals("a rating of [200] is above the highest grade 31 that training takes", e.getMessage());
        expectThrows(IllegalArgumentException.class, () -> Grades.wholeGrade("1e10"));
    }

    public void testAnythingElseIsNoRating() {
        assertNull(Grades.wholeGrade("relevant"));
        assertNull(Grades.wholeGrade(true));
        assertNull(Grades.wholeGrade(null));
        assertNull(Grades.wholeGrade(Double.NaN));
        assertNull(Grades.wholeGrade(Map.of("value", 1)));
    }
}
