package io.flinkivm.flink.common;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.query.Tuple;
import org.junit.jupiter.api.Test;

class KeyFilterTest {
    @Test
    void everyKeyAddedIsMaybeAndFewOthersAreAcrossGrowth() {
        KeyFilter f = new KeyFilter();
        int n = 1_500_000; // three filters: the first holds 262,144 keys, the second four times as many
        for (long i = 0; i < n; i++) {
            f.add(i % 3, (int) (i % 5), Tuple.of(i, "x"));
        }
        for (long i = 0; i < n; i++) {
            assertThat(f.mightContain(i % 3, (int) (i % 5), Tuple.of(i, "x"))).isTrue();
        }
        int falsePositives = 0;
        int probes = 100_000;
        for (long i = n; i < n + probes; i++) {
            if (f.mightContain(i % 3, (int) (i % 5), Tuple.of(i, "x"))) {
                falsePositives++;
            }
        }
        // Each of the filters answers about 1% falsely.
        assertThat((double) falsePositives / probes).isLessThan(0.05);
        assertThat(f.keys()).isBetween((long) (0.95 * n), (long) n);
        assertThat(f.bytes()).isLessThan(8L * n);
    }

    @Test
    void theOperatorKeyAndTheTagArePartOfTheKey() {
        KeyFilter f = new KeyFilter();
        f.add("cell-1", 0, Tuple.of(7L));
        assertThat(f.mightContain("cell-1", 0, Tuple.of(7L))).isTrue();
        int other = 0;
        for (int i = 0; i < 1000; i++) {
            if (f.mightContain("cell-" + (i + 2), 0, Tuple.of(7L)) || f.mightContain("cell-1", i + 1, Tuple.of(7L))) {
                other++;
            }
        }
        assertThat(other).isLessThan(20);
    }
}
