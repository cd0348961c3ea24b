package io.flinkivm.flink.common;

import io.flinkivm.core.query.Tuple;
import java.util.HashSet;
import java.util.Set;
import org.apache.flink.annotation.Internal;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.runtime.state.VoidNamespaceSerializer;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.InternalTimerService;
import org.apache.flink.streaming.api.operators.InternalTimerServiceImpl;
import org.apache.flink.streaming.api.operators.Triggerable;

/**
 * The window timers of a keyed operator whose Flink key holds a window variable ({@link WindowClose}):
 * one event-time timer per key, at the time its windows have all closed, in the operator's internal
 * timer service {@value StateNames#WINDOW_TIMERS}. The operator moves them with the ingest subtasks'
 * event time as its epoch cuts give it ({@link #advance}), never with its own watermark (which counts
 * epochs), and when one fires it drops the key's state. The timers are Flink's, so they are in the
 * checkpoints and follow their key groups on a rescale.
 *
 * <p>A key's timer is registered on the key's first record in this run: the set of keys seen holds
 * one entry per open window key (fired keys leave it), so a record costs one hash lookup; after a
 * restore a key registers again, which the timer service takes as the same timer.
 */
@Internal
public final class ClosingWindows {
    private final WindowClose close;
    private final InternalTimerServiceImpl<Object, VoidNamespace> timers;
    private final Counter closed;
    private final Set<Object> keys = new HashSet<>();
    private long time;

    /**
     * The window timers of {@code operator}: its timer service {@value StateNames#WINDOW_TIMERS}, the
     * keys dropped counted in its metric {@value Metrics#CLOSED_WINDOW_KEYS}.
     *
     * @param time the event time the timers were moved to before (restored), or {@link Long#MIN_VALUE}
     */
    public static <O extends AbstractStreamOperator<?> & Triggerable<Object, VoidNamespace>> ClosingWindows of(
            WindowClose close, O operator, long time) {
        return new ClosingWindows(
                close,
                operator.getInternalTimerService(StateNames.WINDOW_TIMERS, VoidNamespaceSerializer.INSTANCE, operator),
                operator.getMetricGroup().counter(Metrics.CLOSED_WINDOW_KEYS),
                time);
    }

    @SuppressWarnings("unchecked")
    private ClosingWindows(WindowClose close, InternalTimerService<VoidNamespace> timers, Counter closed, long time) {
        if (!(timers instanceof InternalTimerServiceImpl<?, ?>)) {
            throw new IllegalStateException("the window timers need Flink's synchronous timer service, got "
                    + timers.getClass().getName());
        }
        this.close = close;
        this.timers = (InternalTimerServiceImpl<Object, VoidNamespace>) timers;
        this.closed = closed;
        this.time = time;
    }

    /**
     * Called with each record under its key: on the key's first record in this run, registers its
     * timer. Returns false when the key's windows have already closed (the record must not touch
     * state).
     */
    public boolean admit(Object key) throws Exception {
        if (keys.contains(key)) {
            return true;
        }
        long at = close.closesAt((Tuple) key);
        if (at <= time) {
            return false;
        }
        keys.add(key);
        timers.registerEventTimeTimer(VoidNamespace.INSTANCE, at);
        return true;
    }

    /** When the windows of {@code key} close (event time, milliseconds). */
    public long closesAt(Object key) {
        return close.closesAt((Tuple) key);
    }

    /** Moves the timers to event time {@code eventTime}: the keys whose windows closed by then fire. */
    public void advance(long eventTime) throws Exception {
        if (eventTime > time) {
            time = eventTime;
            timers.advanceWatermark(eventTime);
        }
    }

    /** The event time the timers were moved to last. */
    public long time() {
        return time;
    }

    /** After a key's timer fired and its state was dropped. */
    public void closed(Object key) {
        keys.remove(key);
        closed.inc();
    }
}
