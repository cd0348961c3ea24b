package io.flinkivm.flink.sink;

import io.flinkivm.flink.common.KeyGroupStates;
import io.flinkivm.flink.common.StateLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.flink.annotation.Internal;
import org.apache.flink.runtime.state.KeyedStateBackend;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.streaming.api.operators.KeyContext;

/**
 * The state of a sink above the border ({@link RootSinkOperator}), in the layout chosen once
 * ({@link StateLayout}), as a trigger and a checkpoint see it: the groups a trigger reads one at a
 * time (type {@code G}: a Flink key of managed keyed state, or a part of the operator's own state) and
 * what a checkpoint writes beyond Flink's managed state. {@code BorderState} and {@code QTreeState}
 * add what an update reads and writes under the current key.
 */
@Internal
public interface SinkState<G> {
    /** The groups that may hold results. */
    List<G> resultGroups() throws Exception;

    /** The groups that may hold changes since the previous trigger (changelog mode). */
    List<G> changedGroups() throws Exception;

    /** Writes what a checkpoint needs beyond Flink's managed state (the in-memory layout's parts). */
    void snapshot(StateSnapshotContext context) throws Exception;

    /**
     * Under a state TTL, after the current key's states were cleared: drops the changelog's marks of
     * the key held in memory.
     */
    void forgetCurrentKey();

    /** Managed keyed state: a group per Flink key with an entry in the sink's states. */
    abstract class Managed<G> implements SinkState<G> {
        protected final KeyedStateBackend<?> backend;
        /** The operator's key context, which a group's key is made current in. */
        protected final KeyContext keys;

        private final String entries;
        private final DirtyMarks dirty;

        /**
         * @param entries the state whose keys hold results
         * @param dirty the marks of the changes since the previous trigger
         */
        protected Managed(KeyedStateBackend<?> backend, KeyContext keys, String entries, DirtyMarks dirty) {
            this.backend = backend;
            this.keys = keys;
            this.entries = entries;
            this.dirty = dirty;
        }

        /** The group of Flink key {@code key}. */
        protected abstract G group(Object key);

        @Override
        public List<G> resultGroups() throws Exception {
            List<G> out = new ArrayList<>();
            try (Stream<?> stored = backend.getKeys(entries, VoidNamespace.INSTANCE)) {
                stored.forEach(k -> out.add(group(k)));
            }
            return out;
        }

        @Override
        public List<G> changedGroups() throws Exception {
            List<G> out = new ArrayList<>();
            for (Object k : dirty.keys(backend)) {
                out.add(group(k));
            }
            return out;
        }

        /** Writes the marks of the changes held in memory to their state, which the checkpoint then takes. */
        @Override
        public void snapshot(StateSnapshotContext context) {
            dirty.spill();
        }

        @Override
        public void forgetCurrentKey() {
            dirty.clear();
        }
    }

    /** The operator's own state: a group per part of {@link KeyGroupStates} (a key group's, or a key's). */
    abstract class InMemory<P, G> implements SinkState<G> {
        protected final KeyGroupStates<P> parts;

        protected InMemory(KeyGroupStates<P> parts) {
            this.parts = parts;
        }

        /** The group of {@code part}. */
        protected abstract G group(P part);

        /** Whether {@code part} holds changes since the previous trigger. */
        protected abstract boolean changed(P part);

        @Override
        public List<G> resultGroups() {
            List<G> out = new ArrayList<>();
            for (P p : parts.all()) {
                out.add(group(p));
            }
            return out;
        }

        @Override
        public List<G> changedGroups() {
            List<G> out = new ArrayList<>();
            for (P p : parts.all()) {
                if (changed(p)) {
                    out.add(group(p));
                }
            }
            return out;
        }

        @Override
        public void snapshot(StateSnapshotContext context) throws Exception {
            parts.snapshot(context);
        }

        /** Never called: a state TTL keeps the state in Flink's managed keyed state. */
        @Override
        public void forgetCurrentKey() {
            throw new IllegalStateException("the in-memory layout has no state TTL");
        }
    }
}
