package dev.compress.demo;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import dev.compress.demo.report.DemoResults;
import dev.compress.demo.report.HtmlReport;
import dev.compress.demo.report.ResultRow;
import dev.compress.demo.report.TrainingEpoch;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.Assume;
import org.junit.BeforeClass;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * The main job's HTML report opened in headless Chromium: the page parses into the four SVG plots,
 * and a screenshot shows every configuration's marker and every training curve in its colour.
 * Skips only where Chromium is absent outside CI ({@code .ci/run} installs it).
 */
public class HtmlReportRenderTests {

    private static final List<Path> CHROMIUM_CANDIDATES = List.of(
            Path.of("/usr/bin/chromium"), Path.of("/usr/bin/chromium-browser"), Path.of("/usr/bin/google-chrome"));
    private static Path chromium;

    @Rule
    public TemporaryFolder tmp = new TemporaryFolder();

    @BeforeClass
    public static void findChromium() {
        String configured = System.getenv("CHROMIUM");
        chromium = configured != null
                ? Path.of(configured)
                : CHROMIUM_CANDIDATES.stream()
                        .filter(Files::isExecutable)
                        .findFirst()
                        .orElse(null);
        boolean found = chromium != null && Files.isExecutable(chromium);
        if (found == false && System.getenv("CI") != null) {
            throw new AssertionError("Chromium not found (CHROMIUM or " + CHROMIUM_CANDIDATES
                    + "): under CI the report render test must run; .ci/run installs it");
        }
        Assume.assumeTrue(
                "Chromium is not installed (Debian package 'chromium'); skipping the report render test", found);
    }

    /** Eight configurations at distinct places and 30 epochs of DIVE-like curves. */
    static DemoResults sampleResults() {
        int[] bytes = {1536, 1536, 60, 60, 256, 256, 20, 20};
        double[] ndcg = {0.713, 0.680, 0.610, 0.711, 0.507, 0.700, 0.440, 0.660};
        List<ResultRow> rows = new ArrayList<>();
        for (int i = 0; i < bytes.length; i++) {
            rows.add(new ResultRow(
                    "configuration " + i,
                    bytes[i],
                    bytes[i] * 2,
                    ndcg[i],
                    ndcg[i] + 0.1,
                    ndcg[i] / ndcg[0],
                    1.0,
                    ndcg[i] - ndcg[0],
                    0.01,
                    1.5,
                    3.0));
        }
        List<TrainingEpoch> epochs = new ArrayList<>();
        for (int e = 1; e <= 30; e++) {
            epochs.add(new TrainingEpoch(
                    e, 2.0 / e + 0.3, 0.8 * Math.exp(-e / 10.0), 0.6 + 0.1 * (1 - Math.exp(-e / 5.0))));
        }
        Map<String, Double> phases = new LinkedHashMap<>();
        phases.put("train", 60.0);
        phases.put("search", 20.0);
        return new DemoResults(
                "Render test <&>",
                "scifact test split, 300 queries",
                "dive 384 -> 64 dims",
                rows,
                epochs,
                phases,
                80.0,
                "2026-11-21T00:00:00Z");
    }

    private Path writeReport() throws IOException {
        Path html = tmp.getRoot().toPath().resolve("report.html");
        Files.writeString(html, HtmlReport.render(sampleResults()));
        return html;
    }

    private String chromium(String... action) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                chromium.toString(),
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--hide-scrollbars",
                "--user-data-dir=" + tmp.newFolder().getAbsolutePath()));
        command.addAll(List.of(action));
        Path output = tmp.newFile().toPath();
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(false)
                .redirectOutput(output.toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        assertTrue("chromium finished within 2 minutes", process.waitFor(2, TimeUnit.MINUTES));
        assertEquals("chromium exit code", 0, process.exitValue());
        return Files.readString(output, StandardCharsets.UTF_8);
    }

    @Test
    public void thePageParsesIntoTheFourPlots() throws Exception {
        String dom = chromium("--dump-dom", writeReport().toUri().toString());
        for (String id : HtmlReport.PLOT_IDS) {
            assertTrue("plot " + id + " is in the rendered DOM", dom.contains("<svg id=\"" + id + "\""));
        }
        Matcher markers = Pattern.compile("<circle ").matcher(dom);
        int circles = 0;
        while (markers.find()) {
            circles++;
        }
        assertEquals("one marker per configuration", 8, circles);
        assertTrue("the title is escaped", dom.contains("Render test &lt;&amp;&gt;"));
        assertFalse(dom.contains("no data recorded"));
    }

    @Test
    public void theScreenshotShowsEveryMarkerAndCurve() throws Exception {
        Path png = tmp.getRoot().toPath().resolve("report.png");
        chromium(
                "--window-size=1400,2000",
                "--screenshot=" + png,
                writeReport().toUri().toString());
        BufferedImage image = ImageIO.read(png.toFile());
        assertTrue("screenshot written", image != null);
        for (int i = 0; i < 8; i++) {
            String colour = HtmlReport.CONFIGURATION_COLOURS.get(i);
            // legend swatch (12 x 12 = 144 px) plus a marker of radius 6 (about 100 px inside its outline)
            assertTrue("configuration " + i + " drawn in " + colour, pixels(image, colour) > 144 + 50);
        }
        for (String colour : List.of(HtmlReport.LOSS_COLOUR, HtmlReport.RHO_COLOUR, HtmlReport.VALIDATION_COLOUR)) {
            // legend swatch plus a 2.5 px wide line across most of a 560 px wide plot
            assertTrue(
                    "curve drawn in " + colour + ": " + pixels(image, colour) + " px",
                    pixels(image, colour) > 144 + 600);
        }
    }

    @Test
    public void aRunWithoutEpochsSaysSoInsteadOfDrawingEmptyAxes() throws Exception {
        DemoResults sample = sampleResults();
        DemoResults closedForm = new DemoResults(
                sample.title(),
                sample.heldOut(),
                "pca",
                sample.rows(),
                List.of(),
                sample.phases(),
                1,
                sample.finishedAt());
        Path html = tmp.getRoot().toPath().resolve("pca.html");
        Files.writeString(html, HtmlReport.render(closedForm));
        String dom = chromium("--dump-dom", html.toUri().toString());
        assertEquals(3, dom.split("no data recorded for this run", -1).length - 1);
    }

    /** Pixels within a small tolerance of a hex colour (anti-aliasing blends the edges). */
    private static int pixels(BufferedImage image, String hex) {
        int r = Integer.parseInt(hex.substring(1, 3), 16);
        int g = Integer.parseInt(hex.substring(3, 5), 16);
        int b = Integer.parseInt(hex.substring(5, 7), 16);
        int count = 0;
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                int rgb = image.getRGB(x, y);
                if (Math.abs(((rgb >> 16) & 0xff) - r) <= 6
                        && Math.abs(((rgb >> 8) & 0xff) - g) <= 6
                        && Math.abs((rgb & 0xff) - b) <= 6) {
                    count++;
                }
            }
        }
        return count;
    }
}
