package io.flinkivm.examples.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DrawsTest {

    @Test
    void dependsOnlyOnSeedAndIndex() {
        Draws a = new Draws(42, 17);
        Draws b = new Draws(42, 17);

        for (int i = 0; i < 10; i++) {
            assertThat(a.nextLong()).isEqualTo(b.nextLong());
        }
        assertThat(new Draws(42, 18).nextLong()).isNotEqualTo(new Draws(42, 17).nextLong());
        assertThat(new Draws(43, 17).nextLong()).isNotEqualTo(new Draws(42, 17).nextLong());
    }

    @Test
    void aKeyIsThePrefixAndTheRankFromOneOfOneDraw() {
        KeyDistribution keys = new KeyDistribution(5, 1.0);
        for (int i = 0; i < 100; i++) {
            Draws a = new Draws(3, i);
            Draws b = new Draws(3, i);
            assertThat(a.key("wh", keys)).isEqualTo("wh" + (b.next(keys) + 1));
            assertThat(a.nextLong()).as("one draw each").isEqualTo(b.nextLong());
        }
        assertThat(new Draws(3, 0).key("a", new KeyDistribution(1, 0))).isEqualTo("a1");
    }

    @Test
    void drawsStayInRange() {
        Set<Integer> seen = new HashSet<>();
        for (int i = 0; i < 1_000; i++) {
            Draws d = new Draws(1, i);
            double u = d.nextDouble();
            int k = d.nextInt(7);
            assertThat(u).isGreaterThanOrEqualTo(0.0).isLessThan(1.0);
            assertThat(k).isBetween(0, 6);
            seen.add(k);
        }
        assertThat(seen).hasSize(7);
    }
}
