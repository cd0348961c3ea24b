package io.flinkivm.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PlotPngTest {

    @TempDir
    Path dir;

    private static Measurement m(String query, String system, String dist, int n, Bounded ns) {
        return new Measurement(query, system, dist, n, ns, ns.reciprocal(1e9), ns, -1, "", 1, 1, "");
    }

    @Test
    void writesAPngWithOnePanelPerQueryAndDistribution() throws Exception {
        List<Measurement> ms = new ArrayList<>();
        for (int n : new int[] {10_000, 100_000, 1_000_000}) {
            ms.add(m("ex10", "p-hierarchical", "uniform", n, Bounded.exact(500)));
            ms.add(m(
                    "ex10",
                    "fallback",
                    "uniform",
                    n,
                    n < 1_000_000 ? Bounded.exact(n / 10.0) : Bounded.atLeast(n / 10.0)));
            ms.add(m("ex10", "p-hierarchical", "zipf-1.1", n, Bounded.exact(700)));
            ms.add(m("path", "fallback", "uniform", n, Bounded.exact(Math.sqrt(n) * 50)));
        }
        // Enumeration rows and unknown values are not plotted.
        ms.add(new Measurement(
                "ex10",
                "in-memory-list(p-hierarchical)",
                "uniform",
                1_000_000,
                Bounded.exact(5),
                Bounded.exact(2e8),
                Bounded.UNKNOWN,
                10,
                "result tuples",
                0,
                1,
                "",
                Measurement.ENUMERATE));
        ms.add(m("star", "flink-sql", "uniform", 10_000, Bounded.UNKNOWN));
        Path file = dir.resolve("out").resolve(PlotPng.FILE_NAME);

        PlotPng.write(ms, file);

        assertThat(Files.size(file)).isPositive();
        BufferedImage image = ImageIO.read(file.toFile());
        assertThat(image).isNotNull();
        assertThat(image.getWidth()).isEqualTo(PlotPng.size(3, 2).width).isEqualTo(2 * PlotPng.PANEL_WIDTH);
        assertThat(image.getHeight()).isEqualTo(PlotPng.size(3, 2).height);
        // The lines are drawn in the systems' colours: p-hierarchical first (blue), fallback second (red).
        assertThat(countPixels(image, 0x1f77b4)).isGreaterThan(200);
        assertThat(countPixels(image, 0xd62728)).isGreaterThan(200);
        assertThat(countPixels(image, 0x2ca02c)).as("no third system").isZero();
    }

    @Test
    void anEmptyRunStillGivesAnImage() throws Exception {
        Path file = dir.resolve(PlotPng.FILE_NAME);

        PlotPng.write(List.of(), file);

        BufferedImage image = ImageIO.read(file.toFile());
        assertThat(image.getWidth()).isEqualTo(PlotPng.size(0, 0).width);
        assertThat(image.getHeight()).isEqualTo(PlotPng.size(0, 0).height);
    }

    private static int countPixels(BufferedImage image, int rgb) {
        int count = 0;
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                if ((image.getRGB(x, y) & 0xffffff) == rgb) {
                    count++;
                }
            }
        }
        return count;
    }
}
