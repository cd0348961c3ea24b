package io.flinkivm.core.window;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class WindowSpecTest {

    private static List<String> windows(WindowSpec spec, long t) {
        long[] starts = new long[spec.maxWindows()];
        long[] ends = new long[spec.maxWindows()];
        int n = spec.assign(t, starts, ends);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add("[" + starts[i] + "," + ends[i] + ")");
        }
        return out;
    }

    /** Every window [s, e) with s <= t < e among those the definition enumerates, by brute force. */
    private static List<String> bruteForce(WindowSpec spec, long t) {
        List<String> out = new ArrayList<>();
        for (long e = t - 3 * spec.size(); e <= t + 3 * spec.size(); e++) {
            for (long s = e - spec.size(); s < e; s++) {
                boolean window = switch (spec.kind()) {
                    case TUMBLE -> e - s == spec.size() && Math.floorMod(s - spec.offset(), spec.size()) == 0;
                    case HOP -> e - s == spec.size() && Math.floorMod(s - spec.offset(), spec.step()) == 0;
                    case CUMULATE ->
                        Math.floorMod(s - spec.offset(), spec.size()) == 0
                                && (e - s) % spec.step() == 0
                                && e - s <= spec.size();
                };
                if (window && s <= t && t < e) {
                    out.add("[" + s + "," + e + ")");
                }
            }
        }
        out.sort((x, y) -> Long.compare(end(x), end(y)));
        return out;
    }

    private static long end(String w) {
        return Long.parseLong(w.substring(w.indexOf(',') + 1, w.length() - 1));
    }

    @Test
    void tumbleStartsInclusiveEndsExclusive() {
        WindowSpec spec = WindowSpec.tumble(Duration.ofMillis(10));
        assertThat(windows(spec, 0)).containsExactly("[0,10)");
        assertThat(windows(spec, 9)).containsExactly("[0,10)");
        assertThat(windows(spec, 10)).containsExactly("[10,20)");
        assertThat(windows(spec, -1)).containsExactly("[-10,0)");
        assertThat(spec.lastEnd(9)).isEqualTo(10);
    }

    @Test
    void hopGivesSizeOverSlideWindowsFirstEndingFirst() {
        WindowSpec spec = WindowSpec.hop(Duration.ofMillis(5), Duration.ofMillis(15));
        assertThat(windows(spec, 12)).containsExactly("[0,15)", "[5,20)", "[10,25)");
        assertThat(spec.maxWindows()).isEqualTo(3);
        assertThat(spec.lastEnd(12)).isEqualTo(25);
    }

    @Test
    void cumulateGrowsByStepWithinItsPeriod() {
        WindowSpec spec = WindowSpec.cumulate(Duration.ofMillis(2), Duration.ofMillis(8));
        assertThat(windows(spec, 3)).containsExactly("[0,4)", "[0,6)", "[0,8)");
        assertThat(windows(spec, 7)).containsExactly("[0,8)");
        assertThat(windows(spec, 8)).containsExactly("[8,10)", "[8,12)", "[8,14)", "[8,16)");
        assertThat(spec.lastEnd(3)).isEqualTo(8);
    }

    @Test
    void offsetsShiftTheAlignment() {
        WindowSpec spec = WindowSpec.tumble(Duration.ofMillis(10)).withOffset(Duration.ofMillis(3));
        assertThat(windows(spec, 2)).containsExactly("[-7,3)");
        assertThat(windows(spec, 3)).containsExactly("[3,13)");
    }

    @Test
    void agreesWithTheDefinitionByBruteForce() {
        List<WindowSpec> specs = List.of(
                WindowSpec.tumble(Duration.ofMillis(7)),
                WindowSpec.tumble(Duration.ofMillis(6)).withOffset(Duration.ofMillis(-2)),
                WindowSpec.hop(Duration.ofMillis(3), Duration.ofMillis(9)),
                WindowSpec.hop(Duration.ofMillis(2), Duration.ofMillis(8)).withOffset(Duration.ofMillis(1)),
                WindowSpec.cumulate(Duration.ofMillis(3), Duration.ofMillis(12)),
                WindowSpec.cumulate(Duration.ofMillis(2), Duration.ofMillis(6)).withOffset(Duration.ofMillis(5)));
        for (WindowSpec spec : specs) {
            for (long t = -30; t <= 30; t++) {
                assertThat(windows(spec, t)).as("%s at %d", spec, t).isEqualTo(bruteForce(spec, t));
                List<String> all = bruteForce(spec, t);
                assertThat(spec.lastEnd(t)).as("%s at %d", spec, t).isEqualTo(end(all.get(all.size() - 1)));
            }
        }
    }

    @Test
    void refusesWindowsFlinkRefuses() {
        assertThatThrownBy(() -> WindowSpec.tumble(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("TUMBLE needs a positive size");
        assertThatThrownBy(() -> WindowSpec.hop(Duration.ofMillis(4), Duration.ofMillis(10)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("HOP's size (10 ms) must be a multiple of its slide (4 ms)");
        assertThatThrownBy(() -> WindowSpec.cumulate(Duration.ofMillis(-1), Duration.ofMillis(10)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("CUMULATE needs a positive step");
    }

    @Test
    void printsAsFlinkSqlsArguments() {
        assertThat(WindowSpec.hop(Duration.ofSeconds(5), Duration.ofMinutes(1)))
                .hasToString("HOP(slide 5 s, size 1 min)");
        assertThat(WindowSpec.tumble(Duration.ofHours(2)).withOffset(Duration.ofMillis(250)))
                .hasToString("TUMBLE(size 2 h, offset 250 ms)");
        assertThat(WindowSpec.cumulate(Duration.ofSeconds(1), Duration.ofSeconds(4)))
                .hasToString("CUMULATE(step 1 s, size 4 s)");
    }
}
