package io.flinkivm.core.engine.border;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.core.engine.join.JoinRecord;
import io.flinkivm.core.engine.join.TestLayout;
import io.flinkivm.core.engine.maps.MemoryMaps;
import io.flinkivm.core.engine.maps.StateCounts;
import io.flinkivm.core.query.Tuple;
import org.junit.jupiter.api.Test;

/** Lookups of whole-key children: what they keep, up to the cap, and a key with no live record. */
class WholeKeyLookupsTest {
    private static final int LEAF = 1;

    private final TestLayout layout = TestLayout.star(1, -1);
    private final StateCounts counts = new StateCounts();
    private final MemoryJoinRecordStore<Long> store =
            new MemoryJoinRecordStore<>(layout, 0, MemoryMaps.countingInto(counts));

    @Test
    void keepingLookupsReadAKeyFromTheStoreOnce() {
        JoinRecord<Long> leaf = live(5L);
        WholeKeyLookups<Long> keeping = new WholeKeyLookups<>(store, layout.nodeCount(), true);
        assertThat(keeping.live(LEAF, Tuple.of(5L))).isSameAs(leaf);
        assertThat(keeping.live(LEAF, Tuple.of(5L))).isSameAs(leaf);
        assertThat(reads()).isEqualTo(1);

        WholeKeyLookups<Long> plain = new WholeKeyLookups<>(store, layout.nodeCount(), false);
        assertThat(plain.live(LEAF, Tuple.of(5L))).isSameAs(leaf);
        assertThat(plain.live(LEAF, Tuple.of(5L))).isSameAs(leaf);
        assertThat(reads()).isEqualTo(3);
    }

    @Test
    void beyondTheCapLookupsGoToTheStore() {
        int keys = WholeKeyLookups.LOOKUP_CACHE + 1;
        for (long k = 0; k < keys; k++) {
            live(k);
        }
        WholeKeyLookups<Long> lookups = new WholeKeyLookups<>(store, layout.nodeCount(), true);
        for (long k = 0; k < keys; k++) {
            lookups.live(LEAF, Tuple.of(k));
        }
        assertThat(reads()).isEqualTo(keys);
        for (long k = 0; k < keys; k++) {
            lookups.live(LEAF, Tuple.of(k));
        }
        assertThat(reads()).as("only the key past the cap is read again").isEqualTo(keys + 1);
    }

    @Test
    void aKeyWithoutALiveRecordIsAnInternalError() {
        JoinRecord<Long> waiting = new JoinRecord<>(1L);
        waiting.missing = 1;
        store.add(LEAF, Tuple.of(6L), waiting);
        WholeKeyLookups<Long> lookups = new WholeKeyLookups<>(store, layout.nodeCount(), true);
        assertThatThrownBy(() -> lookups.live(LEAF, Tuple.of(7L)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("join key (7) of node 1 has no live record");
        assertThatThrownBy(() -> lookups.live(LEAF, Tuple.of(6L)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("join key (6) of node 1 has no live record");
    }

    private JoinRecord<Long> live(long key) {
        JoinRecord<Long> r = new JoinRecord<>(1L);
        store.add(LEAF, Tuple.of(key), r);
        return r;
    }

    private long reads() {
        return counts.reads(StateCounts.Role.ROOT_VIEW);
    }
}
