package io.flinkivm.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class BoundedTest {

    @Test
    void ratiosKeepTheDirectionOfTheirBounds() {
        Bounded exact = Bounded.exact(10);
        Bounded atLeast = Bounded.atLeast(100);
        Bounded atMost = atLeast.reciprocal(1e9);

        assertThat(exact.divide(Bounded.exact(4)).format()).isEqualTo("2.500");
        assertThat(atLeast.divide(exact).format()).isEqualTo(">10.00");
        assertThat(exact.divide(atLeast).format()).isEqualTo("<0.100");
        assertThat(exact.divide(atMost).kind()).isEqualTo(Bounded.Kind.AT_LEAST);
        assertThat(atLeast.divide(atMost).kind()).isEqualTo(Bounded.Kind.AT_LEAST);
        assertThat(atLeast.divide(atLeast).kind()).isEqualTo(Bounded.Kind.UNKNOWN);
        assertThat(atMost.format()).isEqualTo("<10000000");
        assertThat(Bounded.UNKNOWN.format()).isEqualTo("n/a");
    }
}
