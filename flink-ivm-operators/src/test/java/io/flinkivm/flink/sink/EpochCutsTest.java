package io.flinkivm.flink.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.flink.types.EpochEnd;
import org.junit.jupiter.api.Test;

class EpochCutsTest {

    @Test
    void aCutTakesEverySubtasksLatestEndAtOrBelowTheEpoch() {
        EpochCuts cuts = new EpochCuts();
        cuts.add(new EpochEnd(0, 0, 1, 3, true, true));
        cuts.add(new EpochEnd(1, 0, 1, 2, true, true));
        cuts.add(new EpochEnd(0, 0, 2, 6, true, true));
        cuts.add(new EpochEnd(1, 0, 4, 9, false, true)); // subtask 1 skipped epochs 2 and 3
        assertThat(cuts.next(0)).isEqualTo(-1);
        assertThat(cuts.next(10)).isEqualTo(1);
        EpochCuts.Cut first = cuts.take(1);
        assertThat(first.total()).isEqualTo(5);
        assertThat(first.perSubtask()).containsExactly(3, 2);
        assertThat(first.deterministic()).isTrue();
        assertThat(cuts.next(10)).isEqualTo(2);
        EpochCuts.Cut second = cuts.take(2);
        assertThat(second.perSubtask()).containsExactly(6, 2);
        assertThat(cuts.next(3)).as("nothing ends at 3").isEqualTo(-1);
        EpochCuts.Cut fourth = cuts.take(cuts.next(10));
        assertThat(fourth.perSubtask()).containsExactly(6, 9);
        assertThat(fourth.total()).isEqualTo(15);
        assertThat(fourth.deterministic())
                .as("subtask 1's epoch 4 ended on a tick")
                .isFalse();
        assertThat(cuts.next(Long.MAX_VALUE)).isEqualTo(-1);
    }

    @Test
    void aNewGenerationReplacesTheOldSubtasks() {
        EpochCuts cuts = new EpochCuts();
        cuts.add(new EpochEnd(0, 0, 5, 10, true, true));
        cuts.add(new EpochEnd(1, 0, 5, 20, true, true));
        cuts.add(new EpochEnd(1, 0, 6, 25, true, true)); // pending when the job was rescaled
        cuts.take(5);
        cuts.emitted(30);
        cuts.add(new EpochEnd(0, 1, 6, 35, true, true)); // the bridge: all old inserts
        cuts.add(new EpochEnd(1, 0, 7, 99, true, true)); // a straggler of the old generation is ignored
        EpochCuts.Cut bridge = cuts.take(cuts.next(6));
        assertThat(bridge.perSubtask()).containsExactly(35);
        assertThat(bridge.total()).isEqualTo(35);
        assertThat(cuts.lastTotal()).isEqualTo(30);
        assertThat(cuts.next(100)).isEqualTo(-1);
    }

    @Test
    void itRoundTripsThroughItsStateEncoding() {
        EpochCuts cuts = new EpochCuts();
        cuts.add(new EpochEnd(2, 3, 7, 11, false, true));
        cuts.add(new EpochEnd(0, 3, 7, 4, true, true));
        cuts.add(new EpochEnd(0, 3, 8, 5, true, true));
        cuts.take(7);
        cuts.emitted(15);
        EpochCuts back = EpochCuts.decode(cuts.encode());
        assertThat(back.encode()).isEqualTo(cuts.encode());
        assertThat(back.lastTotal()).isEqualTo(15);
        EpochCuts.Cut c = back.take(back.next(8));
        assertThat(c.perSubtask()).containsExactly(5, 0, 11);
        assertThat(c.deterministic()).isFalse();
        assertThatThrownBy(() -> EpochCuts.decode("x"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("corrupt epoch record");
    }

    /** A cut's event time is the smallest of its subtasks' ends' (as Flink's watermark over channels). */
    @Test
    void aCutsEventTimeIsTheSmallestOfItsSubtasks() {
        EpochCuts cuts = new EpochCuts();
        cuts.add(new EpochEnd(0, 0, 1, 3, true, true, 1_000));
        cuts.add(new EpochEnd(1, 0, 2, 2, true, true, 400));
        EpochCuts.Cut first = cuts.take(1);
        assertThat(first.eventTime())
                .as("subtask 1 has no end at or below epoch 1")
                .isEqualTo(EpochEnd.NO_EVENT_TIME);
        assertThat(cuts.take(2).eventTime()).isEqualTo(400);
        cuts.add(new EpochEnd(1, 0, 3, 5, true, true, 2_000));
        cuts.add(new EpochEnd(0, 0, 3, 6, true, true, 1_500));
        assertThat(cuts.take(3).eventTime()).isEqualTo(1_500);
        assertThat(cuts.eventTime()).isEqualTo(1_500);
        assertThat(new EpochCuts().eventTime()).isEqualTo(EpochEnd.NO_EVENT_TIME);
        assertThat(EpochCuts.decode(cuts.encode()).take(4).eventTime()).isEqualTo(1_500);
        assertThat(new EpochCuts().take(1).eventTime()).isEqualTo(EpochEnd.NO_EVENT_TIME);
    }

    /** State written before ends had event times: the same cuts, with no event time. */
    @Test
    void itReadsTheEncodingWithoutEventTimes() {
        EpochCuts back = EpochCuts.decode("3 15;0 4 1 8 5 3;2 11 0");
        assertThat(back.lastTotal()).isEqualTo(15);
        EpochCuts.Cut c = back.take(back.next(8));
        assertThat(c.perSubtask()).containsExactly(5, 0, 11);
        assertThat(c.deterministic()).isFalse();
        assertThat(c.eventTime()).isEqualTo(EpochEnd.NO_EVENT_TIME);
    }
}
