package io.flinkivm.bench;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Dimension;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.Shape;
import java.awt.Stroke;
import java.awt.geom.AffineTransform;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Line2D;
import java.awt.geom.Path2D;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.imageio.ImageIO;

/**
 * plot.png: CPU nanoseconds per insert ({@link Measurement#cpuNsPerInsert()}, wall time where CPU time
 * is unknown) against n on log-log axes — CPU time because the bench shares its machine and wall time
 * grows with other processes' load — one panel per query and distribution, one
 * line per system, with one colour and marker per system across all panels and a shared legend. A
 * filled marker is a measured value; a hollow marker with an arrow up is a lower bound (the run was
 * stopped at its cap, so the true cost is higher). A Flink system run at several parallelisms is drawn
 * at its smallest (P = 1 unless {@code --parallelism} leaves it out); the others are in the tables and
 * results.csv. Drawn with Java 2D, headless.
 */
public final class PlotPng {
    static final String FILE_NAME = "plot.png";
    static final int PANEL_WIDTH = 640;
    static final int PANEL_HEIGHT = 440;
    static final int COLUMNS = 2;
    static final int TITLE_HEIGHT = 56;
    static final int LEGEND_ROW_HEIGHT = 26;
    static final int LEGEND_COLUMNS = 3;

    private static final Color[] PALETTE = {
        new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c), new Color(0xff7f0e), new Color(0x9467bd),
        new Color(0x8c564b), new Color(0xe377c2), new Color(0x17becf), new Color(0x7f7f7f), new Color(0xbcbd22)
    };

    private PlotPng() {}

    /** A panel: one query on one distribution. */
    private record Panel(String query, String distribution, Map<String, List<Measurement>> series) {}

    /** The image size for a number of panels and systems. */
    static Dimension size(int panels, int systems) {
        int columns = Math.min(COLUMNS, Math.max(1, panels));
        int rows = (Math.max(1, panels) + columns - 1) / columns;
        int legendRows = (systems + 1 + LEGEND_COLUMNS - 1) / LEGEND_COLUMNS;
        return new Dimension(
                columns * PANEL_WIDTH, TITLE_HEIGHT + rows * PANEL_HEIGHT + 20 + legendRows * LEGEND_ROW_HEIGHT);
    }

    /** Writes the plot of the insert measurements in {@code ms} (enumeration rows are left out). */
    static void write(List<Measurement> ms, Path file) throws IOException {
        System.setProperty("java.awt.headless", "true");
        writePng(render(ms), file);
    }

    /** The colour of series {@code i}: one of ten, in the same order in every plot of the bench. */
    public static Color colour(int i) {
        return PALETTE[i % PALETTE.length];
    }

    /** Writes {@code image} as a PNG to {@code file}, making its directory if need be. */
    public static void writePng(BufferedImage image, Path file) throws IOException {
        if (file.getParent() != null) {
            Files.createDirectories(file.getParent());
        }
        if (!ImageIO.write(image, "png", file.toFile())) {
            throw new IOException("no PNG writer");
        }
    }

    static BufferedImage render(List<Measurement> all) {
        Map<String, Integer> lowest = new LinkedHashMap<>();
        for (Measurement m : all) {
            lowest.merge(m.system(), m.parallelism(), Math::min);
        }
        List<Measurement> ms = all.stream()
                .filter(Measurement::isInsert)
                .filter(m -> m.parallelism() == lowest.get(m.system()))
                .map(PlotPng::plotted)
                .filter(m -> m.nsPerInsert().kind() != Bounded.Kind.UNKNOWN
                        && m.nsPerInsert().value() > 0)
                .toList();
        List<Panel> panels = panels(ms);
        List<String> systems = new ArrayList<>(
                new LinkedHashSet<>(ms.stream().map(Measurement::system).toList()));
        Dimension d = size(panels.size(), systems.size());
        BufferedImage image = new BufferedImage(d.width, d.height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, d.width, d.height);
            g.setColor(Color.BLACK);
            g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 18));
            g.drawString(
                    "flink-ivm bench: CPU ns per insert against stream size n (log-log; lower is better, flat is O(1))",
                    16,
                    26);
            g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
            g.drawString(
                    "core engines: insert loop, thread CPU + GC; Flink jobs: whole job incl. submission, process CPU."
                            + " Hollow marker with arrow: lower bound (run stopped at its cap)",
                    16,
                    46);
            int columns = Math.min(COLUMNS, Math.max(1, panels.size()));
            for (int i = 0; i < panels.size(); i++) {
                int x = (i % columns) * PANEL_WIDTH;
                int y = TITLE_HEIGHT + (i / columns) * PANEL_HEIGHT;
                drawPanel(g, panels.get(i), systems, x, y);
            }
            int rows = (Math.max(1, panels.size()) + columns - 1) / columns;
            drawLegend(g, systems, 16, TITLE_HEIGHT + rows * PANEL_HEIGHT + 10, d.width - 32);
        } finally {
            g.dispose();
        }
        return image;
    }

    /** The measurement with the plotted value (CPU time per insert if known) in {@code nsPerInsert}. */
    private static Measurement plotted(Measurement m) {
        Bounded v = m.cpuNsPerInsert().kind() != Bounded.Kind.UNKNOWN
                        && m.cpuNsPerInsert().value() > 0
                ? m.cpuNsPerInsert()
                : m.nsPerInsert();
        return m.withNsPerInsert(v);
    }

    private static List<Panel> panels(List<Measurement> ms) {
        Map<String, Panel> panels = new LinkedHashMap<>();
        for (Measurement m : ms) {
            Panel p = panels.computeIfAbsent(
                    m.query() + "|" + m.distribution(),
                    k -> new Panel(m.query(), m.distribution(), new LinkedHashMap<>()));
            p.series().computeIfAbsent(m.system(), k -> new ArrayList<>()).add(m);
        }
        for (Panel p : panels.values()) {
            for (List<Measurement> s : p.series().values()) {
                s.sort((a, b) -> Integer.compare(a.n(), b.n()));
            }
        }
        return new ArrayList<>(panels.values());
    }

    private static void drawPanel(Graphics2D g, Panel p, List<String> systems, int x0, int y0) {
        int left = x0 + 78;
        int right = x0 + PANEL_WIDTH - 24;
        int top = y0 + 40;
        int bottom = y0 + PANEL_HEIGHT - 56;
        double minN = Double.MAX_VALUE;
        double maxN = 0;
        double minY = Double.MAX_VALUE;
        double maxY = 0;
        for (List<Measurement> s : p.series().values()) {
            for (Measurement m : s) {
                minN = Math.min(minN, m.n());
                maxN = Math.max(maxN, m.n());
                minY = Math.min(minY, m.nsPerInsert().value());
                maxY = Math.max(maxY, m.nsPerInsert().value());
            }
        }
        double x1 = Math.floor(Math.log10(minN));
        double x2 = Math.ceil(Math.log10(maxN));
        if (x2 <= x1) {
            x2 = x1 + 1;
        }
        double y1 = Math.floor(Math.log10(minY));
        double y2 = Math.ceil(Math.log10(maxY) + 0.15);
        if (y2 <= y1) {
            y2 = y1 + 1;
        }
        Axis ax = new Axis(left, right, x1, x2, false);
        Axis ay = new Axis(bottom, top, y1, y2, true);

        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
        g.drawString(p.query() + " — " + p.distribution(), left, y0 + 24);
        Font tickFont = new Font(Font.SANS_SERIF, Font.PLAIN, 12);
        Stroke thin = new BasicStroke(1f);
        for (int k = (int) x1; k <= (int) x2; k++) {
            int px = ax.pixel(k);
            g.setColor(new Color(0xe0e0e0));
            g.draw(new Line2D.Double(px, top, px, bottom));
            g.setColor(Color.BLACK);
            g.draw(new Line2D.Double(px, bottom, px, bottom + 6));
            power(g, tickFont, k, px, bottom + 22, true);
            for (int m = 2; m <= 9 && k < (int) x2; m++) {
                int mx = ax.pixel(k + Math.log10(m));
                g.draw(new Line2D.Double(mx, bottom, mx, bottom + 3));
            }
        }
        for (int k = (int) y1; k <= (int) y2; k++) {
            int py = ay.pixel(k);
            g.setColor(new Color(0xe0e0e0));
            g.draw(new Line2D.Double(left, py, right, py));
            g.setColor(Color.BLACK);
            g.draw(new Line2D.Double(left - 6, py, left, py));
            power(g, tickFont, k, left - 10, py + 5, false);
            for (int m = 2; m <= 9 && k < (int) y2; m++) {
                int my = ay.pixel(k + Math.log10(m));
                g.draw(new Line2D.Double(left - 3, my, left, my));
            }
        }
        g.setStroke(thin);
        g.setColor(Color.BLACK);
        g.draw(new Rectangle2D.Double(left, top, right - left, bottom - top));
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
        String xLabel = "n (inserts in the stream)";
        g.drawString(xLabel, (left + right - g.getFontMetrics().stringWidth(xLabel)) / 2, bottom + 44);
        AffineTransform saved = g.getTransform();
        String yLabel = "CPU ns per insert";
        g.rotate(-Math.PI / 2);
        g.drawString(yLabel, -(top + bottom + g.getFontMetrics().stringWidth(yLabel)) / 2, x0 + 18);
        g.setTransform(saved);

        java.awt.Shape clip = g.getClip();
        g.clipRect(left - 8, top - 8, right - left + 16, bottom - top + 16);
        for (Map.Entry<String, List<Measurement>> e : p.series().entrySet()) {
            int si = systems.indexOf(e.getKey());
            Color c = colour(si);
            List<Measurement> pts = e.getValue();
            g.setColor(c);
            for (int i = 1; i < pts.size(); i++) {
                Measurement a = pts.get(i - 1);
                Measurement b = pts.get(i);
                boolean bound = !a.nsPerInsert().isExact() || !b.nsPerInsert().isExact();
                g.setStroke(
                        bound
                                ? new BasicStroke(
                                        2f, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND, 1f, new float[] {6f, 5f}, 0f)
                                : new BasicStroke(2f));
                g.draw(new Line2D.Double(
                        ax.pixel(Math.log10(a.n())),
                        ay.pixel(Math.log10(a.nsPerInsert().value())),
                        ax.pixel(Math.log10(b.n())),
                        ay.pixel(Math.log10(b.nsPerInsert().value()))));
            }
            g.setStroke(new BasicStroke(1.6f));
            for (Measurement m : pts) {
                int px = ax.pixel(Math.log10(m.n()));
                int py = ay.pixel(Math.log10(m.nsPerInsert().value()));
                marker(g, si, px, py, m.nsPerInsert().isExact(), c);
            }
        }
        g.setClip(clip);
        g.setStroke(thin);
    }

    /** "10" with a superscript exponent, right-aligned at x (or centred when {@code centred}). */
    private static void power(Graphics2D g, Font font, int exponent, int x, int baseline, boolean centred) {
        Font sup = font.deriveFont(font.getSize2D() * 0.75f);
        FontMetrics fm = g.getFontMetrics(font);
        FontMetrics sm = g.getFontMetrics(sup);
        String e = Integer.toString(exponent);
        int width = fm.stringWidth("10") + sm.stringWidth(e);
        int start = centred ? x - width / 2 : x - width;
        g.setColor(Color.BLACK);
        g.setFont(font);
        g.drawString("10", start, baseline);
        g.setFont(sup);
        g.drawString(e, start + fm.stringWidth("10"), baseline - fm.getAscent() / 2);
        g.setFont(font);
    }

    private static void marker(Graphics2D g, int system, int x, int y, boolean exact, Color c) {
        Shape s = shape(system, x, y, 5);
        g.setColor(c);
        if (exact) {
            g.fill(s);
        } else {
            g.setColor(Color.WHITE);
            g.fill(s);
            g.setColor(c);
            g.draw(s);
            g.draw(new Line2D.Double(x, y - 7, x, y - 18));
            Path2D head = new Path2D.Double();
            head.moveTo(x - 4, y - 14);
            head.lineTo(x, y - 19);
            head.lineTo(x + 4, y - 14);
            g.draw(head);
        }
    }

    private static Shape shape(int system, double x, double y, double r) {
        switch (system % 4) {
            case 0:
                return new Ellipse2D.Double(x - r, y - r, 2 * r, 2 * r);
            case 1:
                return new Rectangle2D.Double(x - r, y - r, 2 * r, 2 * r);
            case 2: {
                Path2D t = new Path2D.Double();
                t.moveTo(x, y - r - 1);
                t.lineTo(x + r + 1, y + r);
                t.lineTo(x - r - 1, y + r);
                t.closePath();
                return t;
            }
            default: {
                Path2D dm = new Path2D.Double();
                dm.moveTo(x, y - r - 1);
                dm.lineTo(x + r + 1, y);
                dm.lineTo(x, y + r + 1);
                dm.lineTo(x - r - 1, y);
                dm.closePath();
                return dm;
            }
        }
    }

    private static void drawLegend(Graphics2D g, List<String> systems, int x, int y, int width) {
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 14));
        int cell = width / LEGEND_COLUMNS;
        List<String> items = new ArrayList<>(systems);
        items.add("(hollow + arrow: lower bound)");
        for (int i = 0; i < items.size(); i++) {
            int cx = x + (i % LEGEND_COLUMNS) * cell;
            int cy = y + (i / LEGEND_COLUMNS) * LEGEND_ROW_HEIGHT + 14;
            if (i < systems.size()) {
                Color c = colour(i);
                g.setColor(c);
                g.setStroke(new BasicStroke(2f));
                g.draw(new Line2D.Double(cx, cy - 5, cx + 34, cy - 5));
                g.fill(shape(i, cx + 17, cy - 5, 5));
                g.setColor(Color.BLACK);
                g.drawString(items.get(i), cx + 44, cy);
            } else {
                g.setColor(Color.DARK_GRAY);
                marker(g, 0, cx + 17, cy + 2, false, Color.DARK_GRAY);
                g.drawString(items.get(i), cx + 44, cy);
            }
        }
    }

    /** A log10 axis from {@code lo} to {@code hi} decades onto pixels {@code from}..{@code to}. */
    private record Axis(int from, int to, double lo, double hi, boolean vertical) {
        int pixel(double log) {
            return (int) Math.round(from + (log - lo) / (hi - lo) * (to - from));
        }
    }

    /** The systems in first-seen order (legend order). */
    static Set<String> systems(List<Measurement> ms) {
        Set<String> out = new LinkedHashSet<>();
        for (Measurement m : ms) {
            if (m.isInsert()) {
                out.add(m.system());
            }
        }
        return out;
    }
}
