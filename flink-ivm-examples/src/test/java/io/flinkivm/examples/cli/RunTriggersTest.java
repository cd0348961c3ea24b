package io.flinkivm.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.flink.OutputMode;
import org.junit.jupiter.api.Test;

/** Where run's triggers fall, and how a Flink trigger's insert count maps back to its number. */
class RunTriggersTest {

    @Test
    void aTriggerEveryNLinesAndAtTheEnd() {
        RunTriggers t = new RunTriggers(2, OutputMode.CHANGELOG, false);
        // lines 1..5 make 1, 3, 3, 4, 6 inserts so far (line 3 made none).
        assertThat(t.lineAccepted(1, 1)).isZero();
        assertThat(t.lineAccepted(2, 3)).isEqualTo(1);
        assertThat(t.lineAccepted(3, 3)).isZero();
        assertThat(t.lineAccepted(4, 4)).isEqualTo(2);
        assertThat(t.lineAccepted(5, 6)).isZero();
        assertThat(t.endOfInput(6)).isEqualTo(3);
        assertThat(t.requestPoints()).containsExactly(3, 4);
        assertThat(t.ordinal(3)).isEqualTo(1);
        assertThat(t.ordinal(4)).isEqualTo(2);
        assertThat(t.ordinal(6)).isEqualTo(3);
        assertThat(t.lastId()).isEqualTo(6);
    }

    @Test
    void aTriggerWhoseLinesMadeNoInsertIsLeftOut() {
        RunTriggers t = new RunTriggers(1, OutputMode.SNAPSHOT, false);
        assertThat(t.lineAccepted(1, 0)).as("nothing to reflect yet").isZero();
        assertThat(t.lineAccepted(2, 2)).isEqualTo(2);
        assertThat(t.lineAccepted(3, 2)).isZero();
        assertThat(t.endOfInput(2)).as("the end adds nothing to trigger 3").isZero();
        assertThat(t.ordinal(2))
                .as("Flink emits the first trigger with 2 inserts")
                .isEqualTo(2);
        assertThatThrownBy(() -> t.ordinal(1))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("a trigger after 1 inserts, where none was asked for");
    }

    @Test
    void withoutACountOnlyTheEndTriggers() {
        RunTriggers t = new RunTriggers(0, OutputMode.CHANGELOG, true);
        assertThat(t.lineAccepted(1, 1)).isZero();
        assertThat(t.lineAccepted(2, 2)).isZero();
        assertThat(t.endOfInput(2)).isEqualTo(1);
        assertThat(t.requestPoints()).isEmpty();
        assertThat(t.ordinal(2)).isEqualTo(1);
        assertThat(t.updateBefore()).isTrue();
    }
}
