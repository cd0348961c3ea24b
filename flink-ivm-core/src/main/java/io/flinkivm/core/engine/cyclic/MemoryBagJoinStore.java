package io.flinkivm.core.engine.cyclic;

import io.flinkivm.core.engine.maps.KeyValueState;
import io.flinkivm.core.engine.maps.MemoryMaps;
import io.flinkivm.core.engine.maps.OpenHashMap;
import io.flinkivm.core.engine.maps.StateCounts;
import io.flinkivm.core.query.Tuple;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.Internal;

/** A {@link BagJoinStore} in hash maps (the in-memory engine's). */
@Internal
public final class MemoryBagJoinStore extends BagJoinMaps {
    private final Maps maps;

    public MemoryBagJoinStore(CompiledBagJoin layout) {
        this(layout, MemoryMaps.PLAIN);
    }

    public MemoryBagJoinStore(CompiledBagJoin layout, MemoryMaps made) {
        this(layout, new Maps(made));
    }

    private MemoryBagJoinStore(CompiledBagJoin layout, Maps maps) {
        super(layout, maps);
        this.maps = maps;
    }

    /** Number of entries over all maps (a state-size figure). */
    public long entries() {
        return maps.entries();
    }

    /** Makes hash maps (of role {@link StateCounts.Role#BOOLEAN_JOIN}) and remembers them, for {@link #entries()}. */
    static final class Maps implements MapFactory {
        private final MemoryMaps made;
        private final List<OpenHashMap<?, ?>> all = new ArrayList<>();

        Maps(MemoryMaps made) {
            this.made = made;
        }

        private <V> OpenHashMap<Tuple, V> make() {
            OpenHashMap<Tuple, V> m = made.map(StateCounts.Role.BOOLEAN_JOIN);
            all.add(m);
            return m;
        }

        @Override
        public KeyValueState<Tuple, Tuple> tuples(String name) {
            return make();
        }

        @Override
        public KeyValueState<Tuple, Integer> counts(String name) {
            return make();
        }

        @Override
        public KeyValueState<Tuple, Boolean> flags(String name) {
            return make();
        }

        long entries() {
            long total = 0;
            for (OpenHashMap<?, ?> m : all) {
                total += m.size();
            }
            return total;
        }
    }
}
