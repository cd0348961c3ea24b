package io.flinkivm.core.analysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class VerdictTest {

    @Test
    void yesHasNoWitness() {
        assertThat(Verdict.yes().holds()).isTrue();
        assertThat(Verdict.yes().witness()).isNull();
        assertThat(Verdict.yes()).hasToString("yes");
    }

    @Test
    void noNeedsAWitness() {
        assertThat(Verdict.no("because")).hasToString("no — because");
        assertThatThrownBy(() -> Verdict.no(null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("needs a witness");
        assertThatThrownBy(() -> Verdict.no(" ")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Verdict(true, "x"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("has no witness");
    }
}
