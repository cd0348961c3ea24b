package io.flinkivm.core.engine.fallback;

import io.flinkivm.core.engine.maps.KeyValueState;
import io.flinkivm.core.query.Tuple;
import org.apache.flink.annotation.Internal;

/**
 * A {@link DeltaJoinStore} over arrays of key-value states, one per atom's relation and per index's
 * heads, next and previous links, which a subclass fills in its constructor (hash maps, or Flink's map
 * states).
 *
 * @param <T> the payload type
 */
@Internal
public abstract class IndexedDeltaJoinStore<T> implements DeltaJoinStore<T> {
    /** Per atom: its tuples and payloads. */
    protected final KeyValueState<Tuple, T>[] relations;
    /** Per atom and index: key → the most recently added tuple with that key. */
    protected final KeyValueState<Tuple, Tuple>[][] heads;
    /** Per atom and index: tuple → the next tuple with the same key. */
    protected final KeyValueState<Tuple, Tuple>[][] nexts;
    /** Per atom and index: tuple → the previous tuple with the same key; an atom's row is null without them. */
    protected final KeyValueState<Tuple, Tuple>[][] prevs;

    /** Arrays for the atoms of {@code logic}, each index's slots to be filled by the subclass. */
    @SuppressWarnings("unchecked")
    protected IndexedDeltaJoinStore(DeltaJoinLogic<T> logic) {
        int n = logic.query().body().size();
        relations = new KeyValueState[n];
        heads = new KeyValueState[n][];
        nexts = new KeyValueState[n][];
        prevs = new KeyValueState[n][];
        for (int a = 0; a < n; a++) {
            int indexes = logic.indexCount(a);
            heads[a] = new KeyValueState[indexes];
            nexts[a] = new KeyValueState[indexes];
            prevs[a] = new KeyValueState[indexes];
        }
    }

    @Override
    public final KeyValueState<Tuple, T> relation(int atom) {
        return relations[atom];
    }

    @Override
    public final KeyValueState<Tuple, Tuple> indexHead(int atom, int index) {
        return heads[atom][index];
    }

    @Override
    public final KeyValueState<Tuple, Tuple> indexNext(int atom, int index) {
        return nexts[atom][index];
    }

    @Override
    public final KeyValueState<Tuple, Tuple> indexPrev(int atom, int index) {
        return prevs[atom][index];
    }
}
