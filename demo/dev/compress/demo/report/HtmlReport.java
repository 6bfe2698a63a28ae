package dev.compress.demo.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * The main job's report: one self-contained HTML page (inline CSS and SVG, no script, nothing
 * fetched) with the results table and four plots: nDCG@10 against bytes per vector for every
 * configuration, and the training curves (loss, DIVE's active-triplet ratio rho(t), validation nDCG@10).
 */
public final class HtmlReport {

    /** Marker colours of the configurations, in row order (cycled). */
    public static final List<String> CONFIGURATION_COLOURS = List.of(
            "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22",
            "#7f7f7f");

    public static final String LOSS_COLOUR = "#b8860b";
    public static final String RHO_COLOUR = "#006d6f";
    public static final String VALIDATION_COLOUR = "#4b0082";

    /** Element ids of the four plots. */
    public static final List<String> PLOT_IDS =
            List.of("quality-vs-bytes", "training-loss", "training-rho", "training-validation");

    private HtmlReport() {}

    public static String render(DemoResults results) {
        StringBuilder html = new StringBuilder();
        html.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>")
                .append(SvgChart.escape(results.title()))
                .append("</title>\n<style>\n")
                .append(
                        "body{font-family:sans-serif;margin:24px;color:#222}table{border-collapse:collapse;margin:12px 0}")
                .append(
                        "th,td{border:1px solid #ccc;padding:4px 8px;text-align:right}th:first-child,td:first-child{text-align:left}")
                .append(
                        "figure{display:inline-block;margin:8px;vertical-align:top}.note{color:#555;max-width:1000px}\n")
                .append("</style>\n</head>\n<body>\n");
        html.append("<h1>").append(SvgChart.escape(results.title())).append("</h1>\n");
        html.append("<p>Held out: ")
                .append(SvgChart.escape(results.heldOut()))
                .append(". Model: ")
                .append(SvgChart.escape(results.modelSummary()))
                .append(". Finished ")
                .append(SvgChart.escape(results.finishedAt()))
                .append(String.format(Locale.ROOT, " after %.1f s.</p>%n", results.totalSeconds()));
        html.append(table(results.rows()));
        html.append(
                        "<p class=\"note\">Ratios are to the first row, the frozen float vectors searched exactly, measured in the same run on the same ")
                .append(
                        "held-out queries; the paired difference is the mean per-query nDCG@10 difference to it, with its standard error. ")
                .append(
                        "B/vec: bytes per vector the search reads (1-bit codes with three float corrections, or float32 values; graph links excluded). ")
                .append("Disk B adds the float32 values a binary field keeps for rescoring.</p>\n");
        html.append(figure(qualityVsBytes(results.rows())));
        html.append(figure(
                curve(PLOT_IDS.get(1), "Training loss", "loss", LOSS_COLOUR, results.training(), TrainingEpoch::loss)));
        html.append(figure(curve(
                PLOT_IDS.get(2),
                "Active-triplet ratio rho(t)",
                "rho(t)",
                RHO_COLOUR,
                results.training(),
                TrainingEpoch::activeTripletRatio)));
        html.append(figure(curve(
                PLOT_IDS.get(3),
                "Validation nDCG@10",
                "nDCG@10",
                VALIDATION_COLOUR,
                results.training(),
                TrainingEpoch::validationNdcg)));
        html.append(phases(results.phases()));
        return html.append("</body>\n</html>\n").toString();
    }

    private static String table(List<ResultRow> rows) {
        StringBuilder t = new StringBuilder(
                "<table>\n<tr><th>configuration</th><th>B/vec</th><th>disk B</th><th>nDCG@10</th><th>ratio</th>"
                        + "<th>recall@10</th><th>ratio</th><th>p50 ms</th><th>paired nDCG@10 diff</th></tr>\n");
        for (int i = 0; i < rows.size(); i++) {
            ResultRow r = rows.get(i);
            String paired = i == 0
                    ? "baseline"
                    : String.format(
                            Locale.ROOT, "%+.4f &plusmn; %.4f", r.pairedNdcgDifference(), r.pairedStandardError());
            t.append(String.format(
                    Locale.ROOT,
                    "<tr><td>%s</td><td>%d</td><td>%d</td><td>%.4f</td><td>%.3f</td><td>%.4f</td><td>%.3f</td><td>%.0f</td><td>%s</td></tr>%n",
                    SvgChart.escape(r.label()),
                    r.searchBytes(),
                    r.diskBytes(),
                    r.ndcg(),
                    r.ndcgRatio(),
                    r.recall(),
                    r.recallRatio(),
                    r.p50Millis(),
                    paired));
        }
        return t.append("</table>\n").toString();
    }

    private static SvgChart qualityVsBytes(List<ResultRow> rows) {
        SvgChart chart = new SvgChart(
                PLOT_IDS.get(0),
                "nDCG@10 (held out) against bytes per vector",
                "bytes per vector (log scale)",
                "nDCG@10",
                true);
        for (int i = 0; i < rows.size(); i++) {
            ResultRow r = rows.get(i);
            chart.add(new SvgChart.Series(
                    r.label(),
                    CONFIGURATION_COLOURS.get(i % CONFIGURATION_COLOURS.size()),
                    List.<double[]>of(new double[] {r.searchBytes(), r.ndcg()}),
                    false,
                    true));
        }
        return chart;
    }

    private static SvgChart curve(
            String id,
            String title,
            String yLabel,
            String colour,
            List<TrainingEpoch> epochs,
            Function<TrainingEpoch, Double> value) {
        List<double[]> points = new ArrayList<>();
        for (TrainingEpoch e : epochs) {
            Double v = value.apply(e);
            if (v != null) {
                points.add(new double[] {e.epoch(), v});
            }
        }
        return new SvgChart(id, title, "epoch", yLabel, false)
                .add(new SvgChart.Series(yLabel, colour, points, true, points.size() == 1));
    }

    private static String figure(SvgChart chart) {
        return "<figure>\n" + chart.render() + "</figure>\n";
    }

    private static String phases(Map<String, Double> phases) {
        StringBuilder t = new StringBuilder("<h2>Wall time</h2>\n<table>\n<tr><th>phase</th><th>seconds</th></tr>\n");
        phases.forEach((phase, seconds) -> t.append(
                String.format(Locale.ROOT, "<tr><td>%s</td><td>%.1f</td></tr>%n", SvgChart.escape(phase), seconds)));
        return t.append("</table>\n").toString();
    }
}
