package io.flinkivm.flink.common;

import java.io.Serializable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.state.AggregatingState;
import org.apache.flink.api.common.state.AggregatingStateDescriptor;
import org.apache.flink.api.common.state.KeyedStateStore;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ReducingState;
import org.apache.flink.api.common.state.ReducingStateDescriptor;
import org.apache.flink.api.common.state.State;
import org.apache.flink.api.common.state.StateDescriptor;
import org.apache.flink.api.common.state.StateTtlConfig;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;

/**
 * Idle state retention of the keyed operators ({@code IvmOptions.withStateTtl}), in two forms chosen by
 * how the state's entries depend on each other.
 *
 * <p>Entries that stand alone (a view key's children's payloads in a view tree, a key stage's row and
 * the rows waiting for it, a row check's row) expire one by one with Flink's {@link StateTtlConfig}
 * ({@link #states}), configured as Flink SQL configures its joins' and aggregates' state for {@code
 * table.exec.state.ttl}: the TTL is refreshed on create and write only (a lookup does not keep an entry
 * alive), expired entries are never returned, processing time, and cleanup in the background
 * (incrementally on the heap backend, in RocksDB's compaction filter).
 *
 * <p>The sinks' entries are linked: a join record names the next tuple of its list, a q-tree entry its
 * parent's and children's, a fallback tuple its index neighbours, and all links stay within one Flink
 * key of the sink. One entry expiring alone would leave links to nothing, and once its tuple came back,
 * lists that run in a cycle. So a sink's state expires a whole Flink key at a time ({@link #scope}):
 * when no update has reached the key for the TTL, a processing-time timer drops every state entry of
 * the key at once, and the state stays consistent.
 *
 * <p>A sink's dirty marks (held in memory between triggers, and in state) go with their key. Operator
 * state (epochs, held-back records, partial aggregates of an epoch) lives for an epoch or a checkpoint
 * and does not expire. The operators' own maps of the heap backend ({@link
 * KeyGroupStates}) have no expiry, so under a TTL the operators keep their state in Flink's managed
 * keyed state on every backend, and they keep no {@link KeyFilter}: a filter cannot forget a key, so it
 * would grow with every key ever written instead of with the live ones.
 *
 * @param millis the TTL in milliseconds; 0: no expiry
 */
@Internal
public record StateTtl(long millis) implements Serializable {
    /** No expiry. */
    public static final StateTtl NONE = new StateTtl(0);

    public StateTtl {
        if (millis < 0) {
            throw new IllegalArgumentException("a state TTL must be >= 0 ms (0: none), got " + millis);
        }
    }

    /** Whether state expires. */
    public boolean isSet() {
        return millis > 0;
    }

    /** Flink's TTL configuration of an expiring state (as Flink SQL's for {@code table.exec.state.ttl}). */
    public StateTtlConfig config() {
        if (!isSet()) {
            throw new IllegalStateException("no state TTL is set");
        }
        return StateTtlConfig.newBuilder(Duration.ofMillis(millis))
                .setUpdateType(StateTtlConfig.UpdateType.OnCreateAndWrite)
                .setStateVisibility(StateTtlConfig.StateVisibility.NeverReturnExpired)
                .useProcessingTime()
                // Heap: look at 10 entries per state access; RocksDB: drop expired entries while compacting.
                .cleanupIncrementally(10, false)
                .cleanupInRocksdbCompactFilter(1000)
                .build();
    }

    /**
     * For a sink: a store that gives out {@code store}'s states as they are and remembers them, so that
     * {@link KeyScope#clearCurrentKey} drops all of the current key's state at once.
     */
    public static KeyScope scope(KeyedStateStore store) {
        return new KeyScope(store);
    }

    /** {@code store} itself without a TTL; else a store that enables the TTL on each state it gives out. */
    public KeyedStateStore states(KeyedStateStore store) {
        return isSet() ? new Expiring(store, config()) : store;
    }

    /** The states of a delegate, each with the TTL. */
    private static final class Expiring implements KeyedStateStore {
        private final KeyedStateStore delegate;
        private final StateTtlConfig config;

        Expiring(KeyedStateStore delegate, StateTtlConfig config) {
            this.delegate = delegate;
            this.config = config;
        }

        private void expire(StateDescriptor<?, ?> descriptor) {
            descriptor.enableTimeToLive(config);
        }

        private void expireV2(org.apache.flink.api.common.state.v2.StateDescriptor<?> descriptor) {
            descriptor.enableTimeToLive(config);
        }

        @Override
        public <V> ValueState<V> getState(ValueStateDescriptor<V> d) {
            expire(d);
            return delegate.getState(d);
        }

        @Override
        public <V> ListState<V> getListState(ListStateDescriptor<V> d) {
            expire(d);
            return delegate.getListState(d);
        }

        @Override
        public <V> ReducingState<V> getReducingState(ReducingStateDescriptor<V> d) {
            expire(d);
            return delegate.getReducingState(d);
        }

        @Override
        public <I, A, O> AggregatingState<I, O> getAggregatingState(AggregatingStateDescriptor<I, A, O> d) {
            expire(d);
            return delegate.getAggregatingState(d);
        }

        @Override
        public <K, V> MapState<K, V> getMapState(MapStateDescriptor<K, V> d) {
            expire(d);
            return delegate.getMapState(d);
        }

        @Override
        public <V> org.apache.flink.api.common.state.v2.ValueState<V> getValueState(
                org.apache.flink.api.common.state.v2.ValueStateDescriptor<V> d) {
            expireV2(d);
            return delegate.getValueState(d);
        }

        @Override
        public <V> org.apache.flink.api.common.state.v2.ListState<V> getListState(
                org.apache.flink.api.common.state.v2.ListStateDescriptor<V> d) {
            expireV2(d);
            return delegate.getListState(d);
        }

        @Override
        public <K, V> org.apache.flink.api.common.state.v2.MapState<K, V> getMapState(
                org.apache.flink.api.common.state.v2.MapStateDescriptor<K, V> d) {
            expireV2(d);
            return delegate.getMapState(d);
        }

        @Override
        public <V> org.apache.flink.api.common.state.v2.ReducingState<V> getReducingState(
                org.apache.flink.api.common.state.v2.ReducingStateDescriptor<V> d) {
            expireV2(d);
            return delegate.getReducingState(d);
        }

        @Override
        public <I, A, O> org.apache.flink.api.common.state.v2.AggregatingState<I, O> getAggregatingState(
                org.apache.flink.api.common.state.v2.AggregatingStateDescriptor<I, A, O> d) {
            expireV2(d);
            return delegate.getAggregatingState(d);
        }

        @Override
        public String getBackendTypeIdentifier() {
            return delegate.getBackendTypeIdentifier();
        }
    }

    /** A sink's keyed states, remembered as they are given out, so that a key's entries go together. */
    public static final class KeyScope implements KeyedStateStore {
        private final KeyedStateStore delegate;
        private final List<State> states = new ArrayList<>();

        private KeyScope(KeyedStateStore delegate) {
            this.delegate = delegate;
        }

        /** Drops the current key's entries in every state given out. */
        public void clearCurrentKey() {
            for (State s : states) {
                s.clear();
            }
        }

        private <S extends State> S kept(S state) {
            states.add(state);
            return state;
        }

        @Override
        public <V> ValueState<V> getState(ValueStateDescriptor<V> d) {
            return kept(delegate.getState(d));
        }

        @Override
        public <V> ListState<V> getListState(ListStateDescriptor<V> d) {
            return kept(delegate.getListState(d));
        }

        @Override
        public <V> ReducingState<V> getReducingState(ReducingStateDescriptor<V> d) {
            return kept(delegate.getReducingState(d));
        }

        @Override
        public <I, A, O> AggregatingState<I, O> getAggregatingState(AggregatingStateDescriptor<I, A, O> d) {
            return kept(delegate.getAggregatingState(d));
        }

        @Override
        public <K, V> MapState<K, V> getMapState(MapStateDescriptor<K, V> d) {
            return kept(delegate.getMapState(d));
        }

        @Override
        public <V> org.apache.flink.api.common.state.v2.ValueState<V> getValueState(
                org.apache.flink.api.common.state.v2.ValueStateDescriptor<V> d) {
            throw asynchronous();
        }

        @Override
        public <V> org.apache.flink.api.common.state.v2.ListState<V> getListState(
                org.apache.flink.api.common.state.v2.ListStateDescriptor<V> d) {
            throw asynchronous();
        }

        @Override
        public <K, V> org.apache.flink.api.common.state.v2.MapState<K, V> getMapState(
                org.apache.flink.api.common.state.v2.MapStateDescriptor<K, V> d) {
            throw asynchronous();
        }

        @Override
        public <V> org.apache.flink.api.common.state.v2.ReducingState<V> getReducingState(
                org.apache.flink.api.common.state.v2.ReducingStateDescriptor<V> d) {
            throw asynchronous();
        }

        @Override
        public <I, A, O> org.apache.flink.api.common.state.v2.AggregatingState<I, O> getAggregatingState(
                org.apache.flink.api.common.state.v2.AggregatingStateDescriptor<I, A, O> d) {
            throw asynchronous();
        }

        private static UnsupportedOperationException asynchronous() {
            return new UnsupportedOperationException(
                    "flink-ivm's sinks keep their state through Flink's synchronous state API only");
        }

        @Override
        public String getBackendTypeIdentifier() {
            return delegate.getBackendTypeIdentifier();
        }
    }
}
