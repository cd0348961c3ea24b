package io.flinkivm.flink.common;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Epoch numbers: majors, minors, what an operator may apply, and ticks. */
class EpochsTest {
    private static final long MINORS = 1L << Epochs.MINOR_BITS;

    @Test
    void aMajorEndsOnItsLastNumberAndTheNextStartsAfterIt() {
        assertThat(Epochs.endOfMajor(Epochs.FIRST)).isEqualTo(MINORS - 1);
        assertThat(Epochs.nextMajor(Epochs.FIRST)).isEqualTo(MINORS);
        assertThat(Epochs.endOfMajor(MINORS + 7)).isEqualTo(2 * MINORS - 1);
        assertThat(Epochs.nextMajor(MINORS - 1))
                .as("from a major's last number")
                .isEqualTo(MINORS);
    }

    @Test
    void minorsStayInTheirMajorUntilTheyRunOut() {
        assertThat(Epochs.nextMinor(Epochs.FIRST)).isEqualTo(2);
        assertThat(Epochs.nextMinor(MINORS - 3)).isEqualTo(MINORS - 2);
        assertThat(Epochs.nextMinor(MINORS - 2))
                .as("the last number is kept for the major's end")
                .isEqualTo(MINORS);
    }

    @Test
    void anOperatorAppliesTheWholeLowestOpenMajor() {
        assertThat(Epochs.applicable(Long.MIN_VALUE)).as("before any watermark").isEqualTo(MINORS - 1);
        assertThat(Epochs.applicable(5)).as("after a progress end in major 0").isEqualTo(MINORS - 1);
        assertThat(Epochs.applicable(MINORS - 1)).as("after major 0 ended").isEqualTo(2 * MINORS - 1);
        assertThat(Epochs.applicable(Long.MAX_VALUE)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void subtasksTickingInOnePeriodMeetInOneMajor() {
        long period = 1_000;
        long now = 1_796_319_130_068L;
        long behind = Epochs.tickEpoch(Epochs.FIRST, now, period);
        long ahead = Epochs.tickEpoch(Epochs.nextMajor(Epochs.nextMajor(Epochs.FIRST)) + 3, now + 5, period);
        assertThat(ahead).isEqualTo(behind);
        assertThat(behind & (MINORS - 1)).as("the first epoch of a major").isZero();
        assertThat(Epochs.tickEpoch(behind + 9, now + period, period))
                .as("the next period's major is above every epoch of this one")
                .isGreaterThan(Epochs.endOfMajor(behind));
        assertThat(Epochs.tickEpoch(Long.MAX_VALUE >> 1, now, period))
                .as("never below the epoch a subtask is in")
                .isGreaterThan(Long.MAX_VALUE >> 1);
        assertThat(Epochs.tickEpoch(Epochs.FIRST, now, 1))
                .as("a 1 ms period does not overflow")
                .isPositive();
    }
}
