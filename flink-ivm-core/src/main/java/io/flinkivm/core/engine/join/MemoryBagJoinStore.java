package io.flinkivm.core.engine.join;

import io.flinkivm.core.engine.maps.MemoryMaps;

/** A {@link BagJoinStore} in hash maps (the in-memory engine's). */
public final class MemoryBagJoinStore extends BagJoinMaps {
    private final MemoryBooleanJoinStore.Maps maps;

    public MemoryBagJoinStore(CompiledBagJoin layout) {
        this(layout, MemoryMaps.PLAIN);
    }

    public MemoryBagJoinStore(CompiledBagJoin layout, MemoryMaps made) {
        this(layout, new MemoryBooleanJoinStore.Maps(made));
    }

    private MemoryBagJoinStore(CompiledBagJoin layout, MemoryBooleanJoinStore.Maps maps) {
        super(layout, maps);
        this.maps = maps;
    }

    /** Number of entries over all maps (a state-size figure). */
    public long entries() {
        return maps.entries();
    }
}
