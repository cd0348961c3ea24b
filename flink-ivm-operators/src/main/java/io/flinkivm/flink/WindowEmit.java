package io.flinkivm.flink;

import org.apache.flink.annotation.PublicEvolving;

/**
 * What a changelog says of a window's groups ({@link IvmOptions#withWindowEmit}), for a result collected
 * by window (the sink keyed by a window variable; {@code explain} says so).
 */
@PublicEvolving
public enum WindowEmit {
    /** Every trigger emits the groups that changed since the previous one, open windows too (default). */
    CHANGES,
    /**
     * A window's groups are emitted once, at the first trigger whose cut the window has closed at, each
     * as an insert with its final payload, as Flink SQL's window aggregates emit; nothing of an open
     * window is emitted.
     */
    FINAL
}
