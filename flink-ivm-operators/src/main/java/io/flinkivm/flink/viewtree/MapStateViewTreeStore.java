package io.flinkivm.flink.viewtree;

import io.flinkivm.core.engine.viewtree.ChildPayloads;
import io.flinkivm.core.engine.viewtree.ViewTreeStore;
import io.flinkivm.core.plan.ViewNode;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.flink.common.KeyFilter;
import io.flinkivm.flink.common.StateAccessException;
import io.flinkivm.flink.common.StateNames;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.api.common.state.KeyedStateStore;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.streaming.api.operators.KeyContext;

/**
 * A view tree's stateful join views in keyed state, for core's {@link io.flinkivm.core.engine.viewtree.ViewTreeLogic}:
 * one {@link MapState} per view ({@link StateNames#view}), under the tree operator's key (which the
 * first {@code keyLength} values of every view key of the tree are), mapping the rest of the view's
 * key to the children's payloads. A walk costs one state read and one write per view it passes; with a
 * {@link KeyFilter} of the keys written, the read of a view key that was never written (its first
 * tuple) is answered without the state.
 * Create it in {@code initializeState} of the tree operator.
 */
final class MapStateViewTreeStore<T> implements ViewTreeStore<T>, ChildPayloads<T> {
    private final MapState<Tuple, Object[]>[] views;
    private final int[] arity;
    private final int[][] suffix;
    private final String[] names;
    private Tuple[] mapKeys = new Tuple[8];
    private Object[][] read = new Object[8][];
    private Object[] current;
    /** The view keys written by this subtask (or found at a restore), or null. */
    private final KeyFilter filter;

    private final KeyContext keys;

    /**
     * @param nodes the tree's stateful views
     * @param keyLength how many leading values of a view key the operator's key holds
     * @param children the serializer of a view's children's payloads
     * @param keyContext the operator's key context, for a {@link KeyFilter} of the keys written (null: none);
     *     after a restore, call {@link #rememberStoredKeys()} under every key of the states first
     */
    @SuppressWarnings("unchecked")
    public MapStateViewTreeStore(
            KeyedStateStore context,
            List<ViewNode> nodes,
            int nodeCount,
            int keyLength,
            TypeSerializer<Tuple> keys,
            TypeSerializer<Object[]> children,
            KeyContext keyContext) {
        views = new MapState[nodeCount];
        arity = new int[nodeCount];
        suffix = new int[nodeCount][];
        this.keys = keyContext;
        this.filter = keyContext == null ? null : new KeyFilter();
        names = new String[nodeCount];
        for (ViewNode n : nodes) {
            names[n.id()] = n.displayName();
            views[n.id()] = context.getMapState(new MapStateDescriptor<>(StateNames.view(n.id()), keys, children));
            arity[n.id()] = n.arity();
            int width = n.schema().size() - keyLength;
            suffix[n.id()] = new int[width];
            for (int i = 0; i < width; i++) {
                suffix[n.id()][i] = keyLength + i;
            }
        }
    }

    /** Adds the current key's view keys in the states to the key filter (after a restore). */
    public void rememberStoredKeys() {
        if (filter == null) {
            return;
        }
        Object key = keys.getCurrentKey();
        for (int node = 0; node < views.length; node++) {
            if (views[node] == null) {
                continue;
            }
            try {
                for (Tuple t : views[node].keys()) {
                    filter.add(key, node, t);
                }
            } catch (Exception e) {
                throw new StateAccessException("cannot read state of " + names[node], e);
            }
        }
    }

    @Override
    public ChildPayloads<T> read(int step, int node, Tuple key) {
        if (step == mapKeys.length) {
            mapKeys = Arrays.copyOf(mapKeys, 2 * step);
            read = Arrays.copyOf(read, 2 * step);
        }
        Tuple mapKey = key.project(suffix[node]);
        if (filter != null && !filter.mightContain(keys.getCurrentKey(), node, mapKey)) {
            current = null;
        } else {
            try {
                current = views[node].get(mapKey);
            } catch (Exception e) {
                throw new StateAccessException("cannot read state of " + names[node], e);
            }
        }
        mapKeys[step] = mapKey;
        read[step] = current;
        return this;
    }

    @Override
    @SuppressWarnings("unchecked")
    public T get(int slot) {
        return current == null ? null : (T) current[slot];
    }

    @Override
    public void set(int slot, T payload) {
        throw new UnsupportedOperationException("read-only view of a join view's children");
    }

    @Override
    public void write(int step, int node, Tuple key, int slot, T value) {
        Object[] children = read[step] == null ? new Object[arity[node]] : read[step];
        children[slot] = value;
        if (filter != null && read[step] == null) {
            filter.add(keys.getCurrentKey(), node, mapKeys[step]);
        }
        try {
            if (value == null && allNull(children)) {
                // A ring's payloads cancelled: the key leaves, so the state stays the size of the live data.
                views[node].remove(mapKeys[step]);
            } else {
                views[node].put(mapKeys[step], children);
            }
        } catch (Exception e) {
            throw new StateAccessException("cannot write state of " + names[node], e);
        }
        mapKeys[step] = null;
        read[step] = null;
    }

    private static boolean allNull(Object[] children) {
        for (Object c : children) {
            if (c != null) {
                return false;
            }
        }
        return true;
    }
}
