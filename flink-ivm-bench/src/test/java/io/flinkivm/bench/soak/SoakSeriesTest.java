package io.flinkivm.bench.soak;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.bench.cli.BenchMain;
import io.flinkivm.examples.command.CliException;
import io.flinkivm.examples.testing.CliRun;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code soak --series} files and {@code soak-plot}. */
class SoakSeriesTest {

    static SoakReport report() {
        List<SoakReport.Tenth> tenths = List.of(
                new SoakReport.Tenth(0, 1_000, 10_000, 11_000, -1, Map.of()),
                new SoakReport.Tenth(1_000, 3_000, 11_000, 12_000, -1, Map.of()));
        List<SoakReport.Checkpoint> checkpoints = List.of(
                new SoakReport.Checkpoint(1, 10_000, 200, 4_096, 4_096),
                new SoakReport.Checkpoint(2, 11_000, 500, 8_192, 2_048),
                new SoakReport.Checkpoint(3, 12_500, 100, 9_000, 1_000));
        return new SoakReport(3_000, tenths, checkpoints, 0, 10, 0, true, 2_000, List.of(), null);
    }

    @Test
    void pointsAreTheCheckpointsAtTheInsertsDoneWhenTheyCompleted() {
        List<SoakSeries.Point> points = SoakSeries.of(report());

        assertThat(points)
                .containsExactly(
                        new SoakSeries.Point(1, 0.2, 200, 4_096, 4_096),
                        new SoakSeries.Point(2, 1.5, 2_000, 8_192, 2_048),
                        new SoakSeries.Point(3, 2.6, 3_000, 9_000, 1_000));
    }

    @Test
    void aSeriesIsReadAsWritten(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("s.csv");
        SoakSeries.write(file, report());

        assertThat(Files.readAllLines(file).get(0)).isEqualTo(SoakSeries.HEADER);
        assertThat(SoakSeries.read(file)).isEqualTo(SoakSeries.of(report()));
        Files.writeString(file, SoakSeries.HEADER + "\n1,2,3\n");
        assertThatThrownBy(() -> SoakSeries.read(file)).hasMessageContaining("line 2");
        Files.writeString(file, "a,b\n");
        assertThatThrownBy(() -> SoakSeries.read(file)).hasMessageContaining("not a soak series");
    }

    @Test
    void soakPlotDrawsEverySeries(@TempDir Path dir) throws IOException {
        Path a = dir.resolve("a.csv");
        SoakSeries.write(a, report());
        Path png = dir.resolve("plot").resolve("soak.png");

        CliRun r =
                CliRun.of(BenchMain::run, "soak-plot", "--out", png.toString(), "windowed=" + a, "not windowed=" + a);

        assertThat(r.exitCode()).as(r.err()).isZero();
        BufferedImage image = ImageIO.read(png.toFile());
        assertThat(image.getWidth()).isEqualTo(2 * SoakPlot.PANEL_WIDTH);
        assertThat(image.getHeight()).isEqualTo(SoakPlot.TITLE_HEIGHT + SoakPlot.PANEL_HEIGHT + SoakPlot.LEGEND_HEIGHT);
        Map<String, List<SoakSeries.Point>> one = new LinkedHashMap<>();
        one.put("x", SoakSeries.of(report()));
        // The line is drawn in the first colour (0x1f77b4) somewhere in the left panel.
        BufferedImage drawn = SoakPlot.render(one, "t");
        boolean blue = false;
        for (int x = 0; x < SoakPlot.PANEL_WIDTH && !blue; x++) {
            for (int y = SoakPlot.TITLE_HEIGHT; y < SoakPlot.TITLE_HEIGHT + SoakPlot.PANEL_HEIGHT; y++) {
                blue |= (drawn.getRGB(x, y) & 0xffffff) == 0x1f77b4;
            }
        }
        assertThat(blue).isTrue();
    }

    @Test
    void soakPlotRefusesWhatItCannotRead(@TempDir Path dir) {
        assertThat(CliRun.of(
                                BenchMain::run,
                                "soak-plot",
                                "--out",
                                dir.resolve("p.png").toString(),
                                "no-label")
                        .exitCode())
                .isEqualTo(CliException.USAGE);
        CliRun missing = CliRun.of(
                BenchMain::run, "soak-plot", "--out", dir.resolve("p.png").toString(), "x=" + dir.resolve("none"));
        assertThat(missing.exitCode()).isEqualTo(CliException.FAILURE);
        assertThat(missing.err()).contains("cannot read");
    }

    @Test
    void axesEndAtARoundNumber() {
        assertThat(SoakPlot.niceCeiling(0)).isEqualTo(1);
        assertThat(SoakPlot.niceCeiling(1.3)).isEqualTo(2);
        assertThat(SoakPlot.niceCeiling(2.2)).isEqualTo(2.5);
        assertThat(SoakPlot.niceCeiling(47)).isEqualTo(50);
        assertThat(SoakPlot.niceCeiling(100)).isEqualTo(100);
    }
}
