package io.flinkivm.bench.soak;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.examples.jobs.Draws;
import java.util.BitSet;
import org.apache.flink.util.NumberSequenceIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class EventClockTest {

    /**
     * Every logical position is taken once, and each source range (as Flink's generator source cuts the
     * indices) reads its inserts in logical order, in step with the other ranges.
     */
    @ParameterizedTest
    @CsvSource({"1000, 1", "1000, 2", "1001, 2", "1003, 3", "7, 4", "2, 3", "10007, 5"})
    void dealsTheRangesOutInTurns(long count, int parallelism) {
        EventClock clock = new EventClock(count, parallelism, 1000, 0);
        BitSet seen = new BitSet();
        for (NumberSequenceIterator range : new NumberSequenceIterator(0, count - 1).split(parallelism)) {
            long previous = -1;
            for (long i = range.getCurrent(); i <= range.getTo(); i++) {
                long j = clock.logical(i);
                assertThat(j).as("index %d", i).isBetween(0L, count - 1).isGreaterThan(previous);
                // In step: the k-th insert of every range happens among the k-th of all ranges.
                assertThat(j / parallelism).isEqualTo(Math.min(i - range.getCurrent(), count / parallelism));
                assertThat(seen.get((int) j)).as("position %d twice", j).isFalse();
                seen.set((int) j);
                previous = j;
            }
        }
        assertThat(seen.cardinality()).isEqualTo((int) count);
    }

    @Test
    void timesTrailTheirPositionsTimeByAtMostTheDisorder() {
        EventClock clock = new EventClock(100_000, 2, 50_000, 300);
        assertThat(clock.baseMillis(0)).isEqualTo(EventClock.START);
        assertThat(clock.baseMillis(50_000)).isEqualTo(EventClock.START + 1000);
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (long j = 0; j < 100_000; j++) {
            long late = clock.baseMillis(j) - clock.millis(j, new Draws(7, j));
            min = Math.min(min, late);
            max = Math.max(max, late);
        }
        assertThat(min).isZero();
        assertThat(max).isEqualTo(300);
        assertThat(new EventClock(10, 1, 10, 0).millis(3, new Draws(1, 3))).isEqualTo(EventClock.START + 300);
    }

    @Test
    void refusesARateOrDisorderOutOfRange() {
        assertThatThrownBy(() -> new EventClock(10, 1, 0, 0)).hasMessageContaining("per second");
        assertThatThrownBy(() -> new EventClock(10, 1, 1, -1)).hasMessageContaining("disorder");
    }
}
