package io.flinkivm.flink.state;

import io.flinkivm.core.engine.BooleanJoinStore;
import io.flinkivm.core.engine.CompiledPlan;
import io.flinkivm.core.engine.KeyValueState;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.flink.types.TupleTypeInfo;
import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;

/** The Boolean join's state in keyed {@code MapState}s, one per map per join-tree node (and child). */
public final class FlinkBooleanJoinStore implements BooleanJoinStore {
    private final MapStateAdapter<Tuple, Tuple>[] liveHead;
    private final MapStateAdapter<Tuple, Tuple>[] liveNext;
    private final MapStateAdapter<Tuple, Tuple>[][] waitHead;
    private final MapStateAdapter<Tuple, Tuple>[][] waitNext;
    private final MapStateAdapter<Tuple, Integer>[] missing;

    /** Creates (or restores) the state; call from {@code open()} of a keyed operator. */
    @SuppressWarnings("unchecked")
    public FlinkBooleanJoinStore(CompiledPlan plan, RuntimeContext context) {
        int n = plan.treeCount();
        liveHead = new MapStateAdapter[n];
        liveNext = new MapStateAdapter[n];
        waitHead = new MapStateAdapter[n][];
        waitNext = new MapStateAdapter[n][];
        missing = new MapStateAdapter[n];
        for (int i = 0; i < n; i++) {
            liveHead[i] = tupleMap(context, StateNames.liveHead(i));
            liveNext[i] = tupleMap(context, StateNames.liveNext(i));
            String m = StateNames.missing(i);
            missing[i] = new MapStateAdapter<>(context.getMapState(
                    new MapStateDescriptor<>(m, TupleTypeInfo.INSTANCE, Types.INT)), m);
            int kids = plan.joinChildren(i).length;
            waitHead[i] = new MapStateAdapter[kids];
            waitNext[i] = new MapStateAdapter[kids];
            for (int c = 0; c < kids; c++) {
                waitHead[i][c] = tupleMap(context, StateNames.waitHead(i, c));
                waitNext[i][c] = tupleMap(context, StateNames.waitNext(i, c));
            }
        }
    }

    private static MapStateAdapter<Tuple, Tuple> tupleMap(RuntimeContext context, String name) {
        return new MapStateAdapter<>(context.getMapState(
                new MapStateDescriptor<>(name, TupleTypeInfo.INSTANCE, TupleTypeInfo.INSTANCE)), name);
    }

    @Override
    public KeyValueState<Tuple, Tuple> liveHead(int node) {
        return liveHead[node];
    }

    @Override
    public KeyValueState<Tuple, Tuple> liveNext(int node) {
        return liveNext[node];
    }

    @Override
    public KeyValueState<Tuple, Tuple> waitHead(int node, int child) {
        return waitHead[node][child];
    }

    @Override
    public KeyValueState<Tuple, Tuple> waitNext(int node, int child) {
        return waitNext[node][child];
    }

    @Override
    public KeyValueState<Tuple, Integer> missing(int node) {
        return missing[node];
    }
}
