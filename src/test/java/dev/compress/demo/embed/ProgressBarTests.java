package dev.compress.demo.embed;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.Test;

public class ProgressBarTests {

    @Test
    public void rendersCountRateAndTimeLeft() {
        assertEquals(
                "scifact corpus [#####.........................] 1,024/5,183  20.0 docs/s  ETA 3m 28s",
                ProgressBar.render("scifact corpus", 1024, 5183, 20.0));
        assertEquals(
                "q [##############################] 10/10  5.0 docs/s  done", ProgressBar.render("q", 10, 10, 5.0));
        assertEquals("q [..............................] 0/10  0.0 docs/s  ETA ?", ProgressBar.render("q", 0, 10, 0));
    }

    @Test
    public void durationsReadAsHoursMinutesSeconds() {
        assertEquals("59s", ProgressBar.duration(59.4));
        assertEquals("1h 01m", ProgressBar.duration(3660));
    }

    @Test
    public void rateCountsOnlyThisRunsWorkAndLogLinesAreThrottled() {
        AtomicLong clock = new AtomicLong();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ProgressBar bar =
                new ProgressBar("c", 100, 40, new PrintStream(bytes, true, StandardCharsets.UTF_8), false, clock::get);
        clock.set(1_000_000_000L);
        bar.advance(10); // 1 s: under the 10 s log interval, nothing drawn
        assertEquals("", bytes.toString(StandardCharsets.UTF_8));
        clock.set(10_000_000_000L);
        bar.advance(20); // 30 rows in 10 s, the 40 found done are not counted
        assertEquals(3.0, bar.rate(), 1e-9);
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(out, out.contains("70/100  3.0 docs/s  ETA 10s"));
    }
}
