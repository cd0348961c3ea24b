package io.flinkivm.flink.qtree;

import io.flinkivm.core.engine.maps.MemoryMaps;
import io.flinkivm.core.engine.qtree.MemoryQTreeStore;
import io.flinkivm.core.engine.qtree.QTreeJoin;
import io.flinkivm.core.engine.qtree.QTreeStore;
import io.flinkivm.core.plan.QHierarchicalPlan;
import io.flinkivm.core.query.ResultCursor;
import io.flinkivm.flink.common.KeyGroupStates;
import io.flinkivm.flink.common.StateLayout;
import io.flinkivm.flink.common.StateNames;
import io.flinkivm.flink.sink.RootSinkOperator;
import io.flinkivm.flink.sink.RootSinkSpec;
import io.flinkivm.flink.types.QTreeEntrySerializer;
import io.flinkivm.flink.types.RootUpdate;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.runtime.state.StateInitializationContext;

/**
 * The sink of the {@link QHierarchicalPlan}: the root views in the entries of core's q-tree join
 * ({@link QTreeJoin}), under inserts and deletes over a ring, O(depth) state accesses per root update.
 * A trigger enumerates the result with constant delay (a snapshot), or, in changelog mode, the result
 * tuples whose payload changed since the previous trigger, from the root tuples that changed:
 * {@code +I} for new ones, {@code -U}/{@code +U} for changed ones, {@code -D} for those that left.
 * Keyed as the border sink is (the value of a free variable every root schema has, else HyperCube
 * cells); each key (or key group) holds the q-tree join of its root tuples. The state is in the layout
 * chosen once, {@link QTreeState}: managed keyed state ({@link FlinkQTreeStore}), or, on the heap
 * backend, the operator's own maps per key group ({@link MemoryQTreeStore} in {@link KeyGroupStates}).
 */
@Internal
public final class QTreeSinkOperator<T> extends RootSinkOperator<T, QTreeState.Group<T>, QTreeState<T>> {
    private static final long serialVersionUID = 2L;

    private final QHierarchicalPlan plan;

    private transient QTreeJoin<T> join;
    /** The entries of the group selected for a trigger. */
    private transient QTreeStore<T> selected;

    public QTreeSinkOperator(QHierarchicalPlan plan, RootSinkSpec<T> spec) {
        super("the q-tree sink", spec);
        this.plan = plan;
    }

    @Override
    protected QTreeState<T> createState(
            StateLayout layout, TypeSerializer<T> payloads, StateInitializationContext context) throws Exception {
        FlinkQTreeStore<T> store =
                new FlinkQTreeStore<>(sinkStates(context), payloads, layout == StateLayout.MANAGED ? this : null);
        if (layout == StateLayout.MANAGED) {
            return new QTreeState.Managed<>(store, getKeyedStateBackend(), this);
        }
        checkNoManagedState(List.of(StateNames.QTREE_ENTRIES));
        int nodes = plan.qTree().size();
        // Every q-tree entry's key holds the sink's key (the shared variable's value, or a cell of its own
        // key group), so one store per key group holds the joins of its keys side by side.
        return new QTreeState.InMemory<>(KeyGroupStates.restore(
                getKeyedStateBackend(),
                context,
                () -> new MemoryQTreeStore<>(nodes, MemoryMaps.PLAIN),
                new QTreeState.Codec<>(nodes, new QTreeEntrySerializer<>(payloads)),
                false));
    }

    @Override
    public void open() throws Exception {
        join = new QTreeJoin<>(plan, semiring(), changelog());
        super.open();
    }

    @Override
    protected void apply(RootUpdate<T> u) {
        long before = join.crossings();
        try {
            join.add(state.current(), u.tree(), u.tuple(), u.payload());
        } catch (ArithmeticException e) {
            refuse(u, "delta of " + plan.viewTrees().get(u.tree()).displayName(), e);
        }
        crossed(join.crossings() - before);
    }

    @Override
    protected void selectGroup(QTreeState.Group<T> group) {
        selected = group.select();
    }

    @Override
    protected void groupDone(QTreeState.Group<T> group) {
        selected = null;
    }

    @Override
    protected ResultCursor<T> results() {
        return join.cursor(selected);
    }

    @Override
    protected long emitChanges(long id, boolean deterministic) {
        long[] rows = {0};
        join.trigger(selected, c -> rows[0] += emitChange(id, deterministic, c));
        return rows[0];
    }
}
