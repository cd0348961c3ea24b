package io.flinkivm.core.engine;

/** A {@link BagJoinStore} in hash maps. */
final class MemoryBagJoinStore extends BagJoinMaps {
    private final MemoryBooleanJoinStore.Maps maps;

    MemoryBagJoinStore(CompiledBagJoin layout) {
        this(layout, MemoryMaps.PLAIN);
    }

    MemoryBagJoinStore(CompiledBagJoin layout, MemoryMaps made) {
        this(layout, new MemoryBooleanJoinStore.Maps(made));
    }

    private MemoryBagJoinStore(CompiledBagJoin layout, MemoryBooleanJoinStore.Maps maps) {
        super(layout, maps);
        this.maps = maps;
    }

    /** Number of entries over all maps (a state-size figure). */
    long entries() {
        return maps.entries();
    }
}
