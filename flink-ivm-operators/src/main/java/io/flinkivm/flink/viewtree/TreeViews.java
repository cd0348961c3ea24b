package io.flinkivm.flink.viewtree;

import io.flinkivm.core.engine.viewtree.MemoryViewTreeStore;
import io.flinkivm.core.engine.viewtree.ViewTreeStore;
import io.flinkivm.core.plan.ViewNode;
import io.flinkivm.core.plan.ViewTreePlan;
import io.flinkivm.flink.common.KeyGroupStates;
import io.flinkivm.flink.common.MemoryMapCodec;
import io.flinkivm.flink.common.StateLayout;
import io.flinkivm.flink.common.StateNames;
import io.flinkivm.flink.common.StateTtl;
import io.flinkivm.flink.types.PayloadArraySerializer;
import io.flinkivm.flink.types.TupleSerializer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.runtime.state.KeyedStateBackend;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.operators.KeyContext;

/**
 * The stateful views of one view tree in its operator, in the layout chosen once
 * ({@link StateLayout}): managed keyed state ({@link MapStateViewTreeStore}, with a filter of the keys
 * written), or the operator's own
 * maps per key group ({@link MemoryViewTreeStore} in {@link KeyGroupStates}).
 */
interface TreeViews<T> {
    /** The views of the operator's current key, for core's walk. */
    ViewTreeStore<T> current();

    /** Writes what a checkpoint needs beyond Flink's managed state (the in-memory layout's maps). */
    void snapshot(StateSnapshotContext context) throws Exception;

    /**
     * The views of {@code tree} in the layout for {@code backend}, restored from {@code context}; call
     * from {@code initializeState} (keyed state is registered here).
     *
     * @param keyLength how many leading values of a view key the operator's key holds
     * @param ttl the state TTL: the views expire entries not written for it, without a key filter
     * @param scope when the operator drops a key's views whole (its windows closed): the store the
     *     views' states come from, which remembers them; the managed layout then, without a key filter.
     *     Null: the views are kept
     */
    static <T> TreeViews<T> create(
            String operator,
            ViewTreePlan plan,
            int tree,
            int keyLength,
            boolean managed,
            StateTtl ttl,
            StateTtl.KeyScope scope,
            TypeSerializer<T> payloads,
            KeyedStateBackend<?> backend,
            StateInitializationContext context,
            KeyContext keys)
            throws Exception {
        List<ViewNode> nodes = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (ViewNode n : plan.statefulNodes()) {
            if (n.tree() == tree) {
                nodes.add(n);
                names.add(StateNames.view(n.id()));
            }
        }
        boolean forgets = ttl.isSet() || scope != null;
        StateLayout layout = StateLayout.choose(operator, managed || forgets, backend, context);
        MapStateViewTreeStore<T> store = new MapStateViewTreeStore<>(
                scope != null ? scope : ttl.states(context.getKeyedStateStore()),
                nodes,
                plan.viewNodes().size(),
                keyLength,
                TupleSerializer.INSTANCE,
                new PayloadArraySerializer<>(payloads),
                layout == StateLayout.MANAGED && !forgets ? keys : null);
        if (layout == StateLayout.MANAGED) {
            if (context.isRestored() && !forgets) {
                StateLayout.forEachStoredKey(backend, names, keys, store::rememberStoredKeys);
            }
            return new TreeViews<>() {
                @Override
                public ViewTreeStore<T> current() {
                    return store;
                }

                @Override
                public void snapshot(StateSnapshotContext c) {}
            };
        }
        StateLayout.checkNoManagedState(operator, backend, names);
        KeyGroupStates<MemoryViewTreeStore<T>> memory = KeyGroupStates.restore(
                backend,
                context,
                () -> new MemoryViewTreeStore<>(plan, tree),
                new Codec<>(plan, tree, nodes, payloads),
                false);
        return new TreeViews<>() {
            @Override
            public ViewTreeStore<T> current() {
                return memory.current();
            }

            @Override
            public void snapshot(StateSnapshotContext c) throws Exception {
                memory.snapshot(c);
            }
        };
    }

    /** Writes a key group's views: each stateful view of the tree in id order. */
    final class Codec<T> implements KeyGroupStates.Codec<MemoryViewTreeStore<T>> {
        private final ViewTreePlan plan;
        private final int tree;
        private final List<ViewNode> nodes;
        private final TypeSerializer<T> payloads;

        Codec(ViewTreePlan plan, int tree, List<ViewNode> nodes, TypeSerializer<T> payloads) {
            this.plan = plan;
            this.tree = tree;
            this.nodes = nodes;
            this.payloads = payloads;
        }

        @Override
        public void write(MemoryViewTreeStore<T> views, DataOutputView out) throws IOException {
            for (ViewNode n : nodes) {
                MemoryMapCodec.writeWide(views.view(n.id()), payloads, out);
            }
        }

        @Override
        public MemoryViewTreeStore<T> read(DataInputView in) throws IOException {
            MemoryViewTreeStore<T> views = new MemoryViewTreeStore<>(plan, tree);
            for (ViewNode n : nodes) {
                MemoryMapCodec.readWide(views.view(n.id()), payloads, in);
            }
            return views;
        }
    }
}
