package io.flinkivm.core.engine.cyclic;

import io.flinkivm.core.engine.maps.KeyValueState;
import io.flinkivm.core.query.Tuple;
import org.apache.flink.annotation.Internal;

/**
 * A {@link BagJoinStore} over key-value maps made by a {@link MapFactory}: one map per member set and
 * three per value list of {@link CompiledBagJoin}. Hash maps in the in-memory engine, Flink keyed
 * state in the border sink. The names given to the factory are stable: on Flink they name state in
 * savepoints.
 */
@Internal
public class BagJoinMaps implements BagJoinStore {

    /** Makes the named maps of a store. */
    public interface MapFactory {
        /** A map from tuples to tuples. */
        KeyValueState<Tuple, Tuple> tuples(String name);

        /** A map from tuples to counts. */
        KeyValueState<Tuple, Integer> counts(String name);

        /** A set of tuples, as a map to {@code TRUE}. */
        KeyValueState<Tuple, Boolean> flags(String name);
    }

    private final KeyValueState<Tuple, Boolean>[] projection;
    private final KeyValueState<Tuple, Tuple>[] listHead;
    private final KeyValueState<Tuple, Tuple>[] listNext;
    private final KeyValueState<Tuple, Integer>[] listSize;

    /** Makes (on Flink: creates or restores) the maps of every bag, member and list of {@code layout}. */
    @SuppressWarnings("unchecked")
    public BagJoinMaps(CompiledBagJoin layout, MapFactory maps) {
        projection = new KeyValueState[layout.setCount()];
        for (int s = 0; s < projection.length; s++) {
            projection[s] = maps.flags(setName(s));
        }
        int lists = layout.listCount();
        listHead = new KeyValueState[lists];
        listNext = new KeyValueState[lists];
        listSize = new KeyValueState[lists];
        for (int l = 0; l < lists; l++) {
            listHead[l] = maps.tuples(listHeadName(l));
            listNext[l] = maps.tuples(listNextName(l));
            listSize[l] = maps.counts(listSizeName(l));
        }
    }

    public static String setName(int set) {
        return "bag-set-" + set;
    }

    public static String listHeadName(int list) {
        return "bag-list-head-" + list;
    }

    public static String listNextName(int list) {
        return "bag-list-next-" + list;
    }

    public static String listSizeName(int list) {
        return "bag-list-size-" + list;
    }

    @Override
    public KeyValueState<Tuple, Boolean> projection(int set) {
        return projection[set];
    }

    @Override
    public KeyValueState<Tuple, Tuple> listHead(int list) {
        return listHead[list];
    }

    @Override
    public KeyValueState<Tuple, Tuple> listNext(int list) {
        return listNext[list];
    }

    @Override
    public KeyValueState<Tuple, Integer> listSize(int list) {
        return listSize[list];
    }
}
