package dev.compress.training.trainer;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;

import java.util.Map;
import org.junit.Test;

/** Each error names the parameter and shows the value as sent, and a range as the parameter's own kind of number. */
public class TrainingParametersTests {

    private static String error(Map<String, Object> values, java.util.function.Consumer<TrainingParameters> read) {
        return assertThrows(IllegalArgumentException.class, () -> read.accept(new TrainingParameters(values)))
                .getMessage();
    }

    @Test
    public void aStringWhereANumberGoesIsNamedAsAString() {
        assertEquals(
                "[parameters.epochs] must be a number, got the string [5]",
                error(Map.of("epochs", "5"), p -> p.integer("epochs", 30, 1, 1000)));
        assertEquals(
                "[parameters.margin] must be a number, got [true]",
                error(Map.of("margin", true), p -> p.real("margin", 0.5, 0, 2)));
    }

    @Test
    public void aRangeIsShownAsTheParametersKindOfNumber() {
        assertEquals(
                "[parameters.epochs] must be in [1, 1000], got [0]",
                error(Map.of("epochs", 0), p -> p.integer("epochs", 30, 1, 1000)));
        assertEquals(
                "[parameters.margin] must be in [0.0, 2.0], got [5]",
                error(Map.of("margin", 5), p -> p.real("margin", 0.5, 0, 2)));
        assertEquals(
                "[parameters.epochs] must be a whole number, got [2.5]",
                error(Map.of("epochs", 2.5), p -> p.integer("epochs", 30, 1, 1000)));
        assertEquals(7, new TrainingParameters(Map.of("epochs", 7.0)).integer("epochs", 30, 1, 1000));
    }
}
