package io.flinkivm.bench.soak;

import io.flinkivm.bench.PlotPng;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Path2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * Draws soak series ({@link SoakSeries}) into one PNG: two panels against the inserts processed, the
 * checkpoints' full state size and what each checkpoint wrote, one line per series. Java 2D, headless.
 */
final class SoakPlot {
    static final int PANEL_WIDTH = 620;
    static final int PANEL_HEIGHT = 400;
    static final int TITLE_HEIGHT = 50;
    static final int LEGEND_HEIGHT = 30;

    private static final int LEFT = 70;
    private static final int RIGHT = 20;
    private static final int TOP = 30;
    private static final int BOTTOM = 50;

    private SoakPlot() {}

    /** Writes the plot of {@code series} (label to points, in legend order) under {@code title} to {@code file}. */
    static void write(Map<String, List<SoakSeries.Point>> series, String title, Path file) throws IOException {
        System.setProperty("java.awt.headless", "true");
        PlotPng.writePng(render(series, title), file);
    }

    static BufferedImage render(Map<String, List<SoakSeries.Point>> series, String title) {
        int width = 2 * PANEL_WIDTH;
        int height = TITLE_HEIGHT + PANEL_HEIGHT + LEGEND_HEIGHT;
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, width, height);
            g.setColor(Color.BLACK);
            g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 17));
            g.drawString(title, 16, 28);
            panel(g, series, "full state per checkpoint (MiB)", SoakSeries.Point::stateBytes, 0, TITLE_HEIGHT);
            panel(g, series, "written per checkpoint (MiB)", SoakSeries.Point::writtenBytes, PANEL_WIDTH, TITLE_HEIGHT);
            int x = 16;
            int i = 0;
            g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 14));
            for (String label : series.keySet()) {
                g.setColor(PlotPng.colour(i++));
                g.fillRect(x, TITLE_HEIGHT + PANEL_HEIGHT + 8, 24, 4);
                g.setColor(Color.BLACK);
                g.drawString(label, x + 30, TITLE_HEIGHT + PANEL_HEIGHT + 15);
                x += 40 + g.getFontMetrics().stringWidth(label);
            }
        } finally {
            g.dispose();
        }
        return image;
    }

    private static void panel(
            Graphics2D g,
            Map<String, List<SoakSeries.Point>> series,
            String name,
            ToLongFunction<SoakSeries.Point> value,
            int x0,
            int y0) {
        long maxInserts = 1;
        long maxBytes = 1;
        for (List<SoakSeries.Point> points : series.values()) {
            for (SoakSeries.Point p : points) {
                maxInserts = Math.max(maxInserts, p.inserts());
                maxBytes = Math.max(maxBytes, value.applyAsLong(p));
            }
        }
        double xMax = niceCeiling(maxInserts / 1e6);
        double yMax = niceCeiling(maxBytes / (1024.0 * 1024.0));
        int left = x0 + LEFT;
        int top = y0 + TOP;
        int w = PANEL_WIDTH - LEFT - RIGHT;
        int h = PANEL_HEIGHT - TOP - BOTTOM;
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 14));
        g.setColor(Color.BLACK);
        g.drawString(name, left, y0 + 20);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        for (int k = 0; k <= 5; k++) {
            int gx = left + w * k / 5;
            int gy = top + h - h * k / 5;
            g.setColor(new Color(0xe0e0e0));
            g.drawLine(left, gy, left + w, gy);
            g.drawLine(gx, top, gx, top + h);
            g.setColor(Color.DARK_GRAY);
            String xl = number(xMax * k / 5);
            g.drawString(xl, gx - g.getFontMetrics().stringWidth(xl) / 2, top + h + 16);
            String yl = number(yMax * k / 5);
            g.drawString(yl, left - 8 - g.getFontMetrics().stringWidth(yl), gy + 4);
        }
        g.setColor(Color.BLACK);
        g.drawRect(left, top, w, h);
        String axis = "inserts processed (millions)";
        g.drawString(axis, left + (w - g.getFontMetrics().stringWidth(axis)) / 2, top + h + 36);
        int i = 0;
        for (List<SoakSeries.Point> points : series.values()) {
            Path2D.Double line = new Path2D.Double();
            boolean first = true;
            for (SoakSeries.Point p : points) {
                double px = left + w * (p.inserts() / 1e6) / xMax;
                double py = top + h - h * (value.applyAsLong(p) / (1024.0 * 1024.0)) / yMax;
                if (first) {
                    line.moveTo(px, py);
                    first = false;
                } else {
                    line.lineTo(px, py);
                }
            }
            g.setColor(PlotPng.colour(i++));
            g.setStroke(new BasicStroke(2f));
            g.draw(line);
            g.setStroke(new BasicStroke(1f));
        }
    }

    /** The smallest of 1, 2, 2.5, 5 times a power of ten that is at least {@code v} (1 for v <= 0). */
    static double niceCeiling(double v) {
        if (v <= 0) {
            return 1;
        }
        double p = Math.pow(10, Math.floor(Math.log10(v)));
        for (double m : new double[] {1, 2, 2.5, 5, 10}) {
            if (m * p >= v * (1 - 1e-12)) {
                return m * p;
            }
        }
        return 10 * p;
    }

    private static String number(double v) {
        if (v == Math.rint(v)) {
            return String.format(Locale.ROOT, "%.0f", v);
        }
        return String.format(Locale.ROOT, Math.abs(v) >= 1 ? "%.1f" : "%.2f", v);
    }
}
