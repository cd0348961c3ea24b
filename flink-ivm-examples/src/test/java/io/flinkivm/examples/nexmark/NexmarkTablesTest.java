package io.flinkivm.examples.nexmark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.examples.tables.GeneratedTable;
import java.time.LocalDateTime;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.Test;

class NexmarkTablesTest {
    static final List<String> ALL = List.of(NexmarkTables.PERSON, NexmarkTables.AUCTION, NexmarkTables.BID);

    @Test
    void keysHoldAndEveryReferenceIsToARowThatExists() {
        List<GeneratedTable> t = NexmarkTables.generate(50_000, 3, ALL);
        assertThat(t).extracting(x -> x.rows().size()).containsExactly(1_000, 3_000, 46_000);
        Set<Object> persons = ids(t.get(0));
        Set<Object> auctions = ids(t.get(1));
        assertThat(persons).hasSize(1_000).contains(NexmarkTables.FIRST_PERSON_ID, 1_999L);
        assertThat(auctions).hasSize(3_000).contains(NexmarkTables.FIRST_AUCTION_ID, 3_999L);
        Set<Object> categories = new HashSet<>();
        for (Row a : t.get(1).rows()) {
            assertThat(persons).contains(a.getField(7));
            categories.add(a.getField(8));
            assertThat((Long) a.getField(4)).isGreaterThanOrEqualTo((Long) a.getField(3));
            assertThat((LocalDateTime) a.getField(6)).isAfter((LocalDateTime) a.getField(5));
        }
        assertThat(categories).containsExactlyInAnyOrder(10L, 11L, 12L, 13L, 14L);
        Set<Object> states = new HashSet<>();
        t.get(0).rows().forEach(p -> states.add(p.getField(5)));
        assertThat(states).containsExactlyInAnyOrder("AZ", "CA", "ID", "OR", "WA", "WY");
        for (Row b : t.get(2).rows()) {
            assertThat(auctions).contains(b.getField(0));
            assertThat(persons).contains(b.getField(1));
        }
    }

    @Test
    void theSameSeedGivesTheSameRowsWhateverElseIsAskedFor() {
        List<GeneratedTable> all = NexmarkTables.generate(5_000, 9, ALL);
        List<GeneratedTable> some = NexmarkTables.generate(5_000, 9, List.of(NexmarkTables.BID, NexmarkTables.PERSON));
        assertThat(some.get(0).rows()).isEqualTo(all.get(2).rows());
        assertThat(some.get(1).rows()).isEqualTo(all.get(0).rows());
        assertThat(NexmarkTables.generate(5_000, 10, ALL).get(2).rows())
                .isNotEqualTo(all.get(2).rows());
    }

    @Test
    void eventsForRowsFollowsTheProportions() {
        assertThat(NexmarkTables.eventsFor(4_000, List.of(NexmarkTables.PERSON, NexmarkTables.AUCTION)))
                .isEqualTo(50_000);
        assertThat(NexmarkTables.eventsFor(49_000, List.of(NexmarkTables.AUCTION, NexmarkTables.BID)))
                .isEqualTo(50_000);
        assertThatThrownBy(() -> NexmarkTables.generate(10, 1, List.of("bids")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no Nexmark table bids");
    }

    private static Set<Object> ids(GeneratedTable t) {
        Set<Object> ids = new HashSet<>();
        for (Row r : t.rows()) {
            assertThat(ids.add(r.getField(0)))
                    .as(t.name() + " id " + r.getField(0))
                    .isTrue();
        }
        return ids;
    }
}
