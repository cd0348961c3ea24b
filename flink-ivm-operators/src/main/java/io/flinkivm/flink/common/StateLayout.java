package io.flinkivm.flink.common;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.flink.annotation.Internal;
import org.apache.flink.runtime.state.KeyedStateBackend;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.streaming.api.operators.KeyContext;

/**
 * Where a keyed operator of flink-ivm keeps its state, decided once in {@code initializeState} (as
 * Flink's join operator picks its record state view once, {@code JoinRecordStateViews.create}): in
 * Flink's managed keyed state, or in the operator's own maps per key group ({@link KeyGroupStates}),
 * which the heap backend gets unless managed state is asked for. A checkpoint of one layout does not
 * restore into the other; {@link #choose} and {@link #checkNoManagedState} refuse it with one message.
 * An operator under a state TTL asks for managed state: its own maps have no expiry ({@link StateTtl}).
 */
@Internal
public enum StateLayout {
    /** Flink's managed keyed state: RocksDB, or the heap backend with {@code IvmOptions.withManagedState}. */
    MANAGED,
    /** The operator's own hash maps per key group, written to raw keyed state at checkpoints (heap backend). */
    IN_MEMORY;

    /**
     * The layout of an operator on {@code backend}: {@link #IN_MEMORY} on the heap backend unless
     * {@code managed} is asked for; refuses a restore of the in-memory layout into managed state.
     *
     * @param operator the operator's name, for the message
     */
    public static StateLayout choose(
            String operator, boolean managed, KeyedStateBackend<?> backend, StateInitializationContext context) {
        if (!managed && KeyGroupStates.fits(backend)) {
            return IN_MEMORY;
        }
        if (context.getRawKeyedStateInputs().iterator().hasNext()) {
            throw mismatch(operator, "the in-memory state of the hashmap state backend", "state.backend.type: hashmap");
        }
        return MANAGED;
    }

    /**
     * For the in-memory layout: refuses a restore of managed keyed state, whose states {@code names}
     * must be registered (so a savepoint's serializers are checked) and empty.
     */
    public static void checkNoManagedState(String operator, KeyedStateBackend<?> backend, Collection<String> names)
            throws Exception {
        for (String name : names) {
            try (Stream<?> keys = backend.getKeys(name, VoidNamespace.INSTANCE)) {
                if (keys.findAny().isPresent()) {
                    throw mismatch(
                            operator,
                            "managed keyed state (a rocksdb job, or one with IvmOptions.withManagedState)",
                            "that state backend");
                }
            }
        }
    }

    /**
     * Makes each key that has an entry in one of the states {@code names} current in turn (each once)
     * and runs {@code action} under it: e.g. to refill a {@link KeyFilter} after a restore.
     */
    public static void forEachStoredKey(
            KeyedStateBackend<?> backend, Collection<String> names, KeyContext keys, Runnable action) throws Exception {
        Set<Object> all = new LinkedHashSet<>();
        for (String name : names) {
            try (Stream<?> stored = backend.getKeys(name, VoidNamespace.INSTANCE)) {
                stored.forEach(all::add);
            }
        }
        for (Object key : all) {
            keys.setCurrentKey(key);
            action.run();
        }
    }

    private static IllegalStateException mismatch(String operator, String holds, String restoreWith) {
        return new IllegalStateException(operator + ": the checkpoint or savepoint holds " + holds
                + "; restore it with " + restoreWith + " (or start without it)");
    }
}
