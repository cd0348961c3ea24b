package io.flinkivm.bench.soak;

import io.flinkivm.examples.jobs.Draws;
import java.io.Serializable;
import java.time.Instant;
import org.apache.flink.util.NumberSequenceIterator;

/**
 * The event time of a windowed soak's inserts, and the order in which they happen.
 *
 * <p>The soak's source reads its inserts in {@code parallelism} consecutive ranges of the indices, one
 * per source subtask, cut as Flink's generator source cuts them ({@link NumberSequenceIterator#split}).
 * Each range's inserts must advance in event time together with the others', or the slowest subtask's
 * watermark would hold every window open. So insert i takes the <em>logical</em> position
 * {@code pos * parallelism + k}, where k is its range and pos its place in it: the logical stream is
 * the ranges dealt out in turns, and logical insert j happens at {@code START + j * 1000 / perSecond}
 * milliseconds, minus a jitter of up to {@code disorder} milliseconds drawn per insert. A watermark
 * {@code disorder} behind the largest time seen so far makes no insert late.
 */
public final class EventClock implements Serializable {
    private static final long serialVersionUID = 1L;

    /** The event time of logical insert 0: 2026-01-01T00:00:00Z. */
    public static final long START = Instant.parse("2026-01-01T00:00:00Z").toEpochMilli();

    private final long perSecond;
    private final long disorder;
    /** The first index of each source range, and the count after the last. */
    private final long[] starts;
    /** The shortest range's length. */
    private final long shortest;

    /**
     * @param count the stream's inserts, at least 1
     * @param parallelism the source's parallelism (the number of ranges)
     * @param perSecond inserts per second of event time, at least 1
     * @param disorder the jitter, in milliseconds, at least 0
     */
    public EventClock(long count, int parallelism, long perSecond, long disorder) {
        if (perSecond < 1) {
            throw new IllegalArgumentException("inserts per second of event time must be >= 1, got " + perSecond);
        }
        if (disorder < 0) {
            throw new IllegalArgumentException("the disorder must be >= 0 ms, got " + disorder);
        }
        this.perSecond = perSecond;
        this.disorder = disorder;
        NumberSequenceIterator[] ranges = new NumberSequenceIterator(0, count - 1).split(Math.max(1, parallelism));
        this.starts = new long[ranges.length + 1];
        long min = Long.MAX_VALUE;
        for (int k = 0; k < ranges.length; k++) {
            starts[k] = ranges[k].getCurrent();
            min = Math.min(min, ranges[k].getTo() - ranges[k].getCurrent() + 1);
        }
        starts[ranges.length] = count;
        this.shortest = min;
    }

    /** The source's parallelism the clock deals the ranges for. */
    public int parallelism() {
        return starts.length - 1;
    }

    /** The jitter's bound in milliseconds: the watermark's delay behind the largest time. */
    public long disorder() {
        return disorder;
    }

    /** Inserts per second of event time. */
    public long perSecond() {
        return perSecond;
    }

    /** The logical position of source index {@code index}: inserts happen in this order. */
    public long logical(long index) {
        int k = range(index);
        int ranges = starts.length - 1;
        long pos = index - starts[k];
        if (pos < shortest) {
            return pos * ranges + k;
        }
        // The last insert of a range longer than the shortest: after every range's first `shortest`.
        int before = 0;
        for (int r = 0; r < k; r++) {
            before += starts[r + 1] - starts[r] > shortest ? 1 : 0;
        }
        return shortest * ranges + before;
    }

    private int range(long index) {
        int lo = 0;
        int hi = starts.length - 2;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (starts[mid] <= index) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    /** The time, before its jitter, of logical insert {@code logical}. */
    public long baseMillis(long logical) {
        return START + Math.multiplyExact(logical, 1000L) / perSecond;
    }

    /** The event time of logical insert {@code logical}, its jitter drawn from {@code draws}. */
    public long millis(long logical, Draws draws) {
        return baseMillis(logical)
                - (disorder == 0 ? 0 : draws.nextInt((int) Math.min(Integer.MAX_VALUE, disorder + 1)));
    }
}
