package io.flinkivm.core.semiring;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DecimalsTest {

    @Test
    void plainDecimalsOnly() {
        for (String ok : new String[] {"0", "-3", "+2.5", ".5", "5.", "1e3", "1E-3", "-1.25e+2"}) {
            assertThat(Decimals.isDecimal(ok)).as(ok).isTrue();
        }
        for (String bad : new String[] {"", "-", ".", "e3", "1e", "1d", "0x1p3", "NaN", "Infinity", "1 2", "1.2.3"}) {
            assertThat(Decimals.isDecimal(bad)).as(bad).isFalse();
        }
    }

    @Test
    void formatDropsATrailingPointZeroAndNegativeZero() {
        assertThat(Decimals.format(3.0)).isEqualTo("3");
        assertThat(Decimals.format(-0.0)).isEqualTo("0");
        assertThat(Decimals.format(0.1)).isEqualTo("0.1");
        assertThat(Decimals.format(1e20)).isEqualTo("1.0E20");
    }
}
