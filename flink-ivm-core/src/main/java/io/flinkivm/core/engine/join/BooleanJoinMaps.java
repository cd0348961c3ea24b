package io.flinkivm.core.engine.join;

import io.flinkivm.core.engine.maps.KeyValueState;
import io.flinkivm.core.query.Tuple;

/**
 * A {@link BooleanJoinStore} over key-value maps, one per join-tree node and map (the waiting lists
 * also per child), made by a {@link MapFactory}: the one layout of the join's state, whether the
 * maps are hash maps (the in-memory engines) or Flink keyed state (the border sink). The names given
 * to the factory are stable: on Flink they name state in savepoints.
 */
public class BooleanJoinMaps implements BooleanJoinStore {

    /** Makes the named maps of a store. */
    public interface MapFactory {
        /** A map from tuples to tuples. */
        KeyValueState<Tuple, Tuple> tuples(String name);

        /** A map from tuples to counts. */
        KeyValueState<Tuple, Integer> counts(String name);

        /** A set of tuples, as a map to {@code TRUE}. */
        KeyValueState<Tuple, Boolean> flags(String name);
    }

    private final KeyValueState<Tuple, Tuple>[] liveHead;
    private final KeyValueState<Tuple, Tuple>[] liveNext;
    private final KeyValueState<Tuple, Tuple>[][] waitHead;
    private final KeyValueState<Tuple, Tuple>[][] waitNext;
    private final KeyValueState<Tuple, Integer>[] missing;

    /** Makes (on Flink: creates or restores) the maps of every node of {@code layout}. */
    @SuppressWarnings("unchecked")
    public BooleanJoinMaps(JoinLayout layout, MapFactory maps) {
        int n = layout.nodeCount();
        liveHead = new KeyValueState[n];
        liveNext = new KeyValueState[n];
        waitHead = new KeyValueState[n][];
        waitNext = new KeyValueState[n][];
        missing = new KeyValueState[n];
        for (int i = 0; i < n; i++) {
            liveHead[i] = maps.tuples(liveHeadName(i));
            liveNext[i] = maps.tuples(liveNextName(i));
            missing[i] = maps.counts(missingName(i));
            int kids = layout.joinChildren(i).length;
            waitHead[i] = new KeyValueState[kids];
            waitNext[i] = new KeyValueState[kids];
            for (int c = 0; c < kids; c++) {
                waitHead[i][c] = maps.tuples(waitHeadName(i, c));
                waitNext[i][c] = maps.tuples(waitNextName(i, c));
            }
        }
    }

    /** Name of {@link #liveHead(int)}; a node's live tuples are the keys of this map and of {@link #liveNextName}. */
    public static String liveHeadName(int node) {
        return "live-head-" + node;
    }

    public static String liveNextName(int node) {
        return "live-next-" + node;
    }

    public static String waitHeadName(int node, int child) {
        return "wait-head-" + node + "-" + child;
    }

    public static String waitNextName(int node, int child) {
        return "wait-next-" + node + "-" + child;
    }

    /** Name of {@link #missing(int)}; its keys are the node's tuples that are not live yet. */
    public static String missingName(int node) {
        return "missing-" + node;
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
