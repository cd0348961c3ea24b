package io.flinkivm.flink.common;

import io.flinkivm.core.query.Tuple;
import io.flinkivm.flink.types.TupleSerializer;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataInputViewStreamWrapper;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.core.memory.DataOutputViewStreamWrapper;
import org.apache.flink.runtime.state.AbstractKeyedStateBackend;
import org.apache.flink.runtime.state.KeyGroupRange;
import org.apache.flink.runtime.state.KeyGroupStatePartitionStreamProvider;
import org.apache.flink.runtime.state.KeyedStateBackend;
import org.apache.flink.runtime.state.KeyedStateCheckpointOutputStream;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.runtime.state.heap.HeapKeyedStateBackend;

/**
 * A keyed operator's own in-memory state, one part per key group of its subtask: flink-ivm's hash
 * maps ({@link io.flinkivm.core.engine.maps.OpenHashMap}) instead of Flink's heap state, for the heap
 * backend, where a key's state is several lookups in Flink's tables but one in ours. A checkpoint
 * writes every part into Flink's raw keyed state, key group by key group, so restores and rescaling
 * move parts with their key groups as Flink moves managed keyed state (a checkpoint of this state is
 * a full copy, taken while the operator waits, like the heap backend's but not asynchronous). The
 * operator must return true from {@code isUsingCustomRawKeyedState()}. A part holds the state of
 * every key of its key group, unless parts are kept per key ({@code perKey}: for state whose keys
 * must not meet, such as the bags of a sink keyed by a variable's value).
 *
 * @param <G> one key group's part
 */
@Internal
public final class KeyGroupStates<G> {
    /** Writes and reads a part. */
    public interface Codec<G> {
        void write(G part, DataOutputView out) throws IOException;

        G read(DataInputView in) throws IOException;
    }

    /** The format of a key group's part: 2 since the compact state layout (tuples, payloads, join records). */
    private static final int VERSION = 2;

    private final AbstractKeyedStateBackend<?> backend;
    private final KeyGroupRange range;
    private final Object[] parts;
    private final Supplier<G> fresh;
    private final Codec<G> codec;
    private final boolean perKey;

    private KeyGroupStates(AbstractKeyedStateBackend<?> backend, Supplier<G> fresh, Codec<G> codec, boolean perKey) {
        this.backend = backend;
        this.perKey = perKey;
        this.range = backend.getKeyGroupRange();
        this.parts = new Object[range.getNumberOfKeyGroups()];
        this.fresh = fresh;
        this.codec = codec;
    }

    /** Whether operators keep their state in their own memory on {@code backend}: the heap backend. */
    public static boolean fits(KeyedStateBackend<?> backend) {
        return backend instanceof HeapKeyedStateBackend<?>;
    }

    /**
     * The parts of an operator on {@code backend} ({@link #fits}), restored from the raw keyed state
     * in {@code context}; call from {@code initializeState}.
     */
    public static <G> KeyGroupStates<G> restore(
            KeyedStateBackend<?> backend,
            StateInitializationContext context,
            Supplier<G> fresh,
            Codec<G> codec,
            boolean perKey)
            throws IOException {
        KeyGroupStates<G> states = new KeyGroupStates<>((AbstractKeyedStateBackend<?>) backend, fresh, codec, perKey);
        for (KeyGroupStatePartitionStreamProvider p : context.getRawKeyedStateInputs()) {
            int group = p.getKeyGroupId();
            try (InputStream in = p.getStream()) {
                DataInputView view = new DataInputViewStreamWrapper(in);
                int version = view.readInt();
                if (version != VERSION) {
                    throw new IOException("flink-ivm in-memory state of version " + version
                            + " cannot be read (this is " + VERSION + "): a savepoint of an earlier flink-ivm"
                            + " restores only into the version that wrote it; start this job without it");
                }
                if (view.readBoolean()) {
                    states.parts[group - states.range.getStartKeyGroup()] = states.readGroup(view);
                }
            }
        }
        return states;
    }

    private Object readGroup(DataInputView in) throws IOException {
        if (!perKey) {
            return codec.read(in);
        }
        int n = in.readInt();
        Map<Tuple, G> byKey = new HashMap<>();
        for (int k = 0; k < n; k++) {
            Tuple key = TupleSerializer.INSTANCE.deserialize(in);
            byKey.put(key, codec.read(in));
        }
        return byKey;
    }

    /** The part of the current key (or of its key group), made on first use. */
    @SuppressWarnings("unchecked")
    public G current() {
        int i = backend.getCurrentKeyGroupIndex() - range.getStartKeyGroup();
        Object part = parts[i];
        if (part == null) {
            part = perKey ? new HashMap<Tuple, G>() : fresh.get();
            parts[i] = part;
        }
        if (perKey) {
            Map<Tuple, G> byKey = (Map<Tuple, G>) part;
            Tuple key = (Tuple) backend.getCurrentKey();
            G mine = byKey.get(key);
            if (mine == null) {
                mine = fresh.get();
                byKey.put(key, mine);
            }
            return mine;
        }
        return (G) part;
    }

    /** Every part made so far. */
    @SuppressWarnings("unchecked")
    public List<G> all() {
        List<G> out = new ArrayList<>();
        for (Object p : parts) {
            if (p != null) {
                if (perKey) {
                    out.addAll(((Map<Tuple, G>) p).values());
                } else {
                    out.add((G) p);
                }
            }
        }
        return out;
    }

    /** Writes every key group's part into the checkpoint's raw keyed state; call from {@code snapshotState}. */
    @SuppressWarnings("unchecked")
    public void snapshot(StateSnapshotContext context) throws Exception {
        KeyedStateCheckpointOutputStream out = context.getRawKeyedOperatorStateOutput();
        DataOutputView view = new DataOutputViewStreamWrapper(out);
        for (int group : range) {
            out.startNewKeyGroup(group);
            view.writeInt(VERSION);
            Object part = parts[group - range.getStartKeyGroup()];
            view.writeBoolean(part != null);
            if (part != null && perKey) {
                Map<Tuple, G> byKey = (Map<Tuple, G>) part;
                view.writeInt(byKey.size());
                for (Map.Entry<Tuple, G> e : byKey.entrySet()) {
                    TupleSerializer.INSTANCE.serialize(e.getKey(), view);
                    codec.write(e.getValue(), view);
                }
            } else if (part != null) {
                codec.write((G) part, view);
            }
        }
    }
}
