package io.flinkivm.flink.runtime;

/**
 * How flink-ivm uses event time. The n-th insert carries timestamp 2n. After it, the ingest operator
 * may emit watermark 2n (progress: every delta of the first n inserts has been sent) or 2n + 1 (a
 * snapshot trigger: emit the result after n inserts). Every operator forwards each watermark value
 * once its slowest input reached it, so each trigger reaches the sink after all deltas of the inserts
 * before it; the sink holds back updates with later timestamps until their watermark passes.
 */
public final class EventTime {
    private EventTime() {
    }

    /** Timestamp of the n-th insert and of everything it causes. */
    public static long ofInsert(long n) {
        return 2 * n;
    }

    /** Progress watermark after n inserts. */
    public static long progress(long n) {
        return 2 * n;
    }

    /** Snapshot-trigger watermark after n inserts. */
    public static long trigger(long n) {
        return 2 * n + 1;
    }

    /** Whether a watermark asks for a snapshot (the final {@code Long.MAX_VALUE} does not). */
    public static boolean isTrigger(long watermark) {
        return watermark != Long.MAX_VALUE && (watermark & 1) == 1;
    }

    /** Number of inserts a watermark or timestamp stands for. */
    public static long inserts(long time) {
        return time / 2;
    }
}
