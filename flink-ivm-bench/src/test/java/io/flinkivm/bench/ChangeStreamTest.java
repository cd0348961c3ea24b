package io.flinkivm.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.core.query.ChangeKind;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The changelogs of the bench's changelog workloads: valid for a consumer that trusts them, shares as asked. */
class ChangeStreamTest {

    static List<Workload> byName(String name) {
        return Workloads.changes().stream().filter(w -> w.name().equals(name)).toList();
    }

    @ParameterizedTest(name = "{0} n={1}")
    @CsvSource({"star-changes, 5000", "star-changes, 100", "tpch-changes, 20000"})
    void everyDeleteAndOldRowOfAnUpdateNamesALiveRowInsertedBefore(String name, int n) {
        Workload w = byName(name).get(0);
        InsertStream s =
                w.generate(n, w.distributions(List.of(Distribution.UNIFORM)).get(0), 42);

        // Live rows as a multiset of (relation, tuple, payload): what Flink SQL's joins keep.
        Map<String, Integer> live = new HashMap<>();
        int deletes = 0;
        int updates = 0;
        int inserts = 0;
        for (int i = 0; i < s.size(); i++) {
            String row = s.relation(i) + s.tuple(i) + "=" + s.payload(i);
            ChangeKind k = s.kind(i);
            if (k.isRetraction()) {
                assertThat(live.getOrDefault(row, 0))
                        .as("record %d %s %s names a live row", i, k, row)
                        .isPositive();
                live.merge(row, -1, Integer::sum);
            } else {
                live.merge(row, 1, Integer::sum);
            }
            switch (k) {
                case INSERT -> inserts++;
                case DELETE -> deletes++;
                case UPDATE_BEFORE -> {
                    assertThat(s.kind(i + 1))
                            .as("-U at %d is followed by its +U", i)
                            .isEqualTo(ChangeKind.UPDATE_AFTER);
                    assertThat(s.relation(i + 1)).isEqualTo(s.relation(i));
                    updates++;
                }
                case UPDATE_AFTER ->
                    assertThat(s.kind(i - 1)).as("+U at %d follows a -U", i).isEqualTo(ChangeKind.UPDATE_BEFORE);
            }
        }
        assertThat(s.changes()).isEqualTo(n);
        assertThat(s.isChangelog()).isTrue();
        assertThat(deletes).isEqualTo(ChangeStream.deletes(n)).isEqualTo(Math.round(n * 0.2));
        assertThat(updates).isEqualTo(ChangeStream.updates(n)).isEqualTo(Math.round(n * 0.2));
        assertThat(inserts + deletes + updates).isEqualTo(n);
        assertThat(s.size()).isEqualTo(n + updates);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"star-changes", "tpch-changes"})
    void theSameSeedGivesTheSameStreamAnotherSeedAnother(String name) {
        Workload w = byName(name).get(0);
        Distribution d = w.distributions(List.of(Distribution.UNIFORM)).get(0);
        InsertStream a = w.generate(3000, d, 42);
        InsertStream b = w.generate(3000, d, 42);
        InsertStream c = w.generate(3000, d, 43);

        assertThat(records(a)).isEqualTo(records(b));
        assertThat(records(a)).isNotEqualTo(records(c));
    }

    @ParameterizedTest(name = "n={0}")
    @CsvSource({"100", "1000"})
    void aTooShortInsertStreamIsRefused(int n) {
        InsertStream inserts = new StarWorkload().generate(n / 2, Distribution.UNIFORM, 1);

        assertThatThrownBy(() -> ChangeStream.of(inserts, n, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("needs " + (n - ChangeStream.deletes(n)) + " inserts");
    }

    static List<String> records(InsertStream s) {
        List<String> out = new ArrayList<>(s.size());
        for (int i = 0; i < s.size(); i++) {
            out.add(s.kind(i).shortString() + s.relation(i) + s.tuple(i) + "=" + s.payload(i));
        }
        return out;
    }
}
