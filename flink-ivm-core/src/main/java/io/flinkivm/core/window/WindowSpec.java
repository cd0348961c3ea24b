package io.flinkivm.core.window;

import java.io.Serializable;
import java.time.Duration;
import org.apache.flink.annotation.PublicEvolving;

/**
 * An event-time window of Flink SQL's window table functions: {@code TUMBLE(size)}, {@code HOP(slide,
 * size)} and {@code CUMULATE(step, size)}, each with an offset, all in milliseconds. A window {@code [start,
 * end)} holds the timestamps {@code start <= t < end}. Windows are aligned to the offset: a tumbling
 * window starts at a multiple of its size past the offset, a hopping window at a multiple of its
 * slide, and the cumulating windows of one period of {@code size} all start at its start and end at
 * each multiple of the step up to the period's end.
 *
 * @param kind the window function
 * @param size the window's size (of CUMULATE: the largest window's)
 * @param step the distance between window starts (HOP's slide) or ends (CUMULATE's step); of TUMBLE,
 *     its size
 * @param offset the shift of the windows' alignment from the epoch (0: aligned to it)
 */
@PublicEvolving
public record WindowSpec(Kind kind, long size, long step, long offset) implements Serializable {

    /** The window functions. */
    public enum Kind {
        /** One window per timestamp, of a fixed size, aligned to the size. */
        TUMBLE,
        /** Windows of a fixed size, one starting every slide: size / slide windows per timestamp. */
        HOP,
        /** Windows that start together every size and end at every step up to the size. */
        CUMULATE
    }

    public WindowSpec {
        if (kind == null) {
            throw new IllegalArgumentException("a window needs its kind (TUMBLE, HOP or CUMULATE)");
        }
        if (size <= 0) {
            throw new IllegalArgumentException(kind + " needs a positive size, got " + size + " ms");
        }
        if (step <= 0) {
            throw new IllegalArgumentException(kind + " needs a positive " + stepName(kind) + ", got " + step + " ms");
        }
        if (kind == Kind.TUMBLE && step != size) {
            throw new IllegalArgumentException("TUMBLE has no slide: its step is its size");
        }
        if (kind != Kind.TUMBLE && size % step != 0) {
            throw new IllegalArgumentException(kind + "'s size (" + size + " ms) must be a multiple of its "
                    + stepName(kind) + " (" + step + " ms), as Flink SQL's window aggregates require");
        }
    }

    /** {@code TUMBLE(size)}. */
    public static WindowSpec tumble(Duration size) {
        return new WindowSpec(Kind.TUMBLE, size.toMillis(), size.toMillis(), 0);
    }

    /** {@code HOP(slide, size)}: windows of {@code size}, one starting every {@code slide} (Flink SQL's argument order). */
    public static WindowSpec hop(Duration slide, Duration size) {
        return new WindowSpec(Kind.HOP, size.toMillis(), slide.toMillis(), 0);
    }

    /** {@code CUMULATE(step, size)}: windows that grow by {@code step} up to {@code size} (Flink SQL's argument order). */
    public static WindowSpec cumulate(Duration step, Duration size) {
        return new WindowSpec(Kind.CUMULATE, size.toMillis(), step.toMillis(), 0);
    }

    /** A copy whose windows are shifted by {@code offset} from the epoch. */
    public WindowSpec withOffset(Duration offset) {
        return new WindowSpec(kind, size, step, offset.toMillis());
    }

    /** The most windows one timestamp belongs to: 1, size / slide or size / step. */
    public int maxWindows() {
        return (int) (size / step);
    }

    /**
     * Writes the windows timestamp {@code t} (milliseconds) belongs to into {@code starts} and {@code
     * ends} (each at least {@link #maxWindows()} long), in the order they end, and returns how many
     * there are.
     */
    public int assign(long t, long[] starts, long[] ends) {
        switch (kind) {
            case TUMBLE -> {
                starts[0] = alignedStart(t, size);
                ends[0] = starts[0] + size;
                return 1;
            }
            case HOP -> {
                // The window that ends first starts at the last slide boundary at or before t - size + 1.
                long last = alignedStart(t, step);
                int n = 0;
                for (long start = last - size + step; start <= last; start += step) {
                    starts[n] = start;
                    ends[n] = start + size;
                    n++;
                }
                return n;
            }
            case CUMULATE -> {
                long start = alignedStart(t, size);
                int n = 0;
                for (long end = alignedStart(t, step) + step; end <= start + size; end += step) {
                    starts[n] = start;
                    ends[n] = end;
                    n++;
                }
                return n;
            }
            default -> throw new IllegalStateException("unknown window kind " + kind);
        }
    }

    /** The end of the last of timestamp {@code t}'s windows to close: a row is late once that one closed. */
    public long lastEnd(long t) {
        return kind == Kind.HOP ? alignedStart(t, step) + size : alignedStart(t, size) + size;
    }

    /** The largest {@code offset + k * unit <= t}. */
    private long alignedStart(long t, long unit) {
        return t - Math.floorMod(t - offset, unit);
    }

    private static String stepName(Kind kind) {
        return kind == Kind.HOP ? "slide" : kind == Kind.CUMULATE ? "step" : "size";
    }

    /** As Flink SQL writes the call's window arguments, e.g. {@code HOP(slide 5 s, size 10 s)}. */
    @Override
    public String toString() {
        String offsetText = offset == 0 ? "" : ", offset " + millis(offset);
        return switch (kind) {
            case TUMBLE -> "TUMBLE(size " + millis(size) + offsetText + ")";
            case HOP -> "HOP(slide " + millis(step) + ", size " + millis(size) + offsetText + ")";
            case CUMULATE -> "CUMULATE(step " + millis(step) + ", size " + millis(size) + offsetText + ")";
        };
    }

    /** A duration in milliseconds in the largest unit that divides it: {@code 5 s}, {@code 90 min}, {@code 250 ms}. */
    static String millis(long ms) {
        long a = Math.abs(ms);
        if (a != 0 && a % 3_600_000 == 0) {
            return ms / 3_600_000 + " h";
        } else if (a != 0 && a % 60_000 == 0) {
            return ms / 60_000 + " min";
        } else if (a != 0 && a % 1000 == 0) {
            return ms / 1000 + " s";
        }
        return ms + " ms";
    }
}
