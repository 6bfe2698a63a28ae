package dev.compress.demo.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A small self-contained SVG chart: axes with ticks, series drawn as lines and/or markers, a legend.
 * No script and no external resource, so the report renders offline in any browser.
 */
public final class SvgChart {

    /** One series; {@code colour} is a CSS hex colour. */
    public record Series(String name, String colour, List<double[]> points, boolean line, boolean markers) {}

    private static final int WIDTH = 640;
    private static final int HEIGHT = 360;
    private static final int LEFT = 64;
    private static final int RIGHT = 16;
    private static final int TOP = 36;
    private static final int BOTTOM = 48;

    private final String id;
    private final String title;
    private final String xLabel;
    private final String yLabel;
    private final boolean logX;
    private final List<Series> series = new ArrayList<>();

    public SvgChart(String id, String title, String xLabel, String yLabel, boolean logX) {
        this.id = id;
        this.title = title;
        this.xLabel = xLabel;
        this.yLabel = yLabel;
        this.logX = logX;
    }

    public SvgChart add(Series s) {
        if (s.points().isEmpty() == false) {
            series.add(s);
        }
        return this;
    }

    /** The chart as an inline {@code <svg>} element; an empty chart says so instead of drawing axes. */
    public String render() {
        StringBuilder svg = new StringBuilder();
        int legendHeight = 16 * series.size();
        int height = HEIGHT + legendHeight;
        svg.append(String.format(
                Locale.ROOT,
                "<svg id=\"%s\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"%s\">%n",
                id,
                WIDTH,
                height,
                WIDTH,
                height,
                escape(title)));
        svg.append("<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n");
        svg.append(text(WIDTH / 2.0, 20, title, "middle", 15, "bold"));
        if (series.isEmpty()) {
            svg.append(text(WIDTH / 2.0, HEIGHT / 2.0, "no data recorded for this run", "middle", 13, "normal"));
            return svg.append("</svg>\n").toString();
        }
        Axis x = Axis.of(
                series.stream()
                        .flatMap(s -> s.points().stream())
                        .mapToDouble(p -> p[0])
                        .toArray(),
                logX);
        Axis y = Axis.of(
                series.stream()
                        .flatMap(s -> s.points().stream())
                        .mapToDouble(p -> p[1])
                        .toArray(),
                false);
        double plotW = WIDTH - LEFT - RIGHT;
        double plotH = HEIGHT - TOP - BOTTOM;
        svg.append(String.format(
                Locale.ROOT,
                "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"#444444\"/>%n",
                LEFT,
                TOP,
                plotW,
                plotH));
        for (double t : x.ticks()) {
            double px = LEFT + x.fraction(t) * plotW;
            svg.append(line(px, TOP, px, TOP + plotH, "#e5e5e5"));
            svg.append(text(px, TOP + plotH + 16, Axis.label(t), "middle", 11, "normal"));
        }
        for (double t : y.ticks()) {
            double py = TOP + plotH - y.fraction(t) * plotH;
            svg.append(line(LEFT, py, LEFT + plotW, py, "#e5e5e5"));
            svg.append(text(LEFT - 6, py + 4, Axis.label(t), "end", 11, "normal"));
        }
        svg.append(text(LEFT + plotW / 2, HEIGHT - 10, xLabel, "middle", 12, "normal"));
        svg.append(String.format(
                Locale.ROOT,
                "<text x=\"14\" y=\"%.1f\" font-family=\"sans-serif\" font-size=\"12\" text-anchor=\"middle\" transform=\"rotate(-90 14 %.1f)\">%s</text>%n",
                TOP + plotH / 2,
                TOP + plotH / 2,
                escape(yLabel)));
        for (Series s : series) {
            StringBuilder path = new StringBuilder();
            for (double[] p : s.points()) {
                double px = LEFT + x.fraction(p[0]) * plotW;
                double py = TOP + plotH - y.fraction(p[1]) * plotH;
                path.append(path.isEmpty() ? "M" : " L").append(String.format(Locale.ROOT, "%.1f %.1f", px, py));
                if (s.markers()) {
                    svg.append(String.format(
                            Locale.ROOT,
                            "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"6\" fill=\"%s\" stroke=\"#222222\" stroke-width=\"0.5\"><title>%s: (%s, %s)</title></circle>%n",
                            px,
                            py,
                            s.colour(),
                            escape(s.name()),
                            Axis.label(p[0]),
                            String.format(Locale.ROOT, "%.4f", p[1])));
                }
            }
            if (s.line()) {
                svg.append(String.format(
                        Locale.ROOT,
                        "<path d=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2.5\"/>%n",
                        path,
                        s.colour()));
            }
        }
        for (int i = 0; i < series.size(); i++) {
            double ly = HEIGHT + 4 + 16 * i;
            svg.append(String.format(
                    Locale.ROOT,
                    "<rect x=\"%d\" y=\"%.1f\" width=\"12\" height=\"12\" fill=\"%s\"/>%n",
                    LEFT,
                    ly,
                    series.get(i).colour()));
            svg.append(text(LEFT + 18, ly + 10, series.get(i).name(), "start", 12, "normal"));
        }
        return svg.append("</svg>\n").toString();
    }

    private static String line(double x1, double y1, double x2, double y2, String colour) {
        return String.format(
                Locale.ROOT,
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>%n",
                x1,
                y1,
                x2,
                y2,
                colour);
    }

    private static String text(double x, double y, String content, String anchor, int size, String weight) {
        return String.format(
                Locale.ROOT,
                "<text x=\"%.1f\" y=\"%.1f\" font-family=\"sans-serif\" font-size=\"%d\" font-weight=\"%s\" text-anchor=\"%s\">%s</text>%n",
                x,
                y,
                size,
                weight,
                anchor,
                escape(content));
    }

    static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    /** An axis range with round ticks; a log axis has ticks at 1, 2 and 5 times powers of ten. */
    record Axis(double min, double max, boolean log, double[] ticks) {

        static Axis of(double[] values, boolean log) {
            double lo = Double.POSITIVE_INFINITY;
            double hi = Double.NEGATIVE_INFINITY;
            for (double v : values) {
                lo = Math.min(lo, v);
                hi = Math.max(hi, v);
            }
            if (log) {
                double min = Math.pow(10, Math.floor(Math.log10(lo)));
                double max = Math.pow(10, Math.ceil(Math.log10(hi)));
                if (max <= min) {
                    max = min * 10;
                }
                List<Double> ticks = new ArrayList<>();
                for (double decade = min; decade <= max * 1.0001; decade *= 10) {
                    for (double m : new double[] {1, 2, 5}) {
                        if (decade * m <= max * 1.0001) {
                            ticks.add(decade * m);
                        }
                    }
                }
                return new Axis(
                        min,
                        max,
                        true,
                        ticks.stream().mapToDouble(Double::doubleValue).toArray());
            }
            if (hi - lo < 1e-12) {
                double pad = Math.max(Math.abs(hi) * 0.1, 1e-3);
                lo -= pad;
                hi += pad;
            }
            double step = niceStep((hi - lo) / 5);
            double min = Math.floor(lo / step) * step;
            double max = Math.ceil(hi / step) * step;
            int n = (int) Math.round((max - min) / step);
            double[] ticks = new double[n + 1];
            for (int i = 0; i <= n; i++) {
                ticks[i] = min + i * step;
            }
            return new Axis(min, max, false, ticks);
        }

        private static double niceStep(double rough) {
            double decade = Math.pow(10, Math.floor(Math.log10(rough)));
            double f = rough / decade;
            return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * decade;
        }

        double fraction(double v) {
            return log
                    ? (Math.log10(v) - Math.log10(min)) / (Math.log10(max) - Math.log10(min))
                    : (v - min) / (max - min);
        }

        static String label(double v) {
            if (Math.abs(v - Math.rint(v)) < 1e-9 && Math.abs(v) < 1e7) {
                return String.format(Locale.ROOT, "%d", (long) Math.rint(v));
            }
            return String.format(Locale.ROOT, "%.3g", v);
        }
    }
}
