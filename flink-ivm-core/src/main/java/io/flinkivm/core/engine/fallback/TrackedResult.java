package io.flinkivm.core.engine.fallback;

import io.flinkivm.core.engine.maps.KeyValueState;
import io.flinkivm.core.query.ResultChange;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
import java.util.Iterator;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.flink.annotation.Internal;

/**
 * A materialized result (the fallback's) that remembers, for each tuple it changes, the payload the
 * tuple had at the last trigger (zero: absent), so that a trigger emits the changed tuples only, each
 * once, at a cost proportional to the changes. Writes go through it; the remembered payloads live in
 * their own key-value state, which the trigger clears.
 *
 * @param <T> the payload type
 */
@Internal
public final class TrackedResult<T> implements KeyValueState<Tuple, T> {
    private final KeyValueState<Tuple, T> result;
    private final KeyValueState<Tuple, T> before;
    private final Semiring<T> semiring;

    /**
     * @param result the materialized result
     * @param before where the payloads at the last trigger are remembered (empty after a trigger)
     */
    public TrackedResult(KeyValueState<Tuple, T> result, KeyValueState<Tuple, T> before, Semiring<T> semiring) {
        this.result = result;
        this.before = before;
        this.semiring = semiring;
    }

    @Override
    public T get(Tuple key) {
        return result.get(key);
    }

    @Override
    public void put(Tuple key, T value) {
        remember(key);
        result.put(key, value);
    }

    @Override
    public void remove(Tuple key) {
        remember(key);
        result.remove(key);
    }

    private void remember(Tuple key) {
        if (before.get(key) == null) {
            T old = result.get(key);
            before.put(key, old == null ? semiring.zero() : old);
        }
    }

    /**
     * The change of {@code key} between the last trigger, when its payload was {@code then} (as
     * remembered), and now; null if its payload is the same (or it was and is absent).
     */
    public ResultChange<T> change(Tuple key, T then) {
        T now = result.get(key);
        boolean wasAbsent = semiring.isZero(then);
        boolean isAbsent = now == null || semiring.isZero(now);
        if (wasAbsent && isAbsent || !wasAbsent && !isAbsent && now.equals(then)) {
            return null;
        }
        return new ResultChange<>(key, isAbsent ? null : now, wasAbsent ? null : then);
    }

    /**
     * Hands the change of every tuple in {@code remembered} (entries of the state of remembered
     * payloads) that did change to {@code out}; the caller then clears that state.
     */
    public void changes(Iterator<Map.Entry<Tuple, T>> remembered, Consumer<ResultChange<T>> out) {
        while (remembered.hasNext()) {
            Map.Entry<Tuple, T> e = remembered.next();
            ResultChange<T> c = change(e.getKey(), e.getValue());
            if (c != null) {
                out.accept(c);
            }
        }
    }
}
