package io.flinkivm.sql.translate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.core.oracle.KDatabase;
import io.flinkivm.core.oracle.NaiveEvaluator;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Ring;
import io.flinkivm.core.semiring.Semiring;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The fold of result tuples' changes into groups, one change at a time: the tuples' changes come from
 * the naive evaluator (its result before and after each row), and every group's row is checked against a
 * direct evaluation of the SQL over the rows so far, insert-only (over the plan's semiring) and with
 * deletes (over the ring).
 */
class DistinctGroupMapTest {
    private static final String SQL = "SELECT dt, COUNT(*) AS n, COUNT(DISTINCT bidder) AS bidders,"
            + " COUNT(DISTINCT bidder) FILTER (WHERE price < 50) AS cheap_bidders,"
            + " COUNT(DISTINCT auction) AS auctions, SUM(price) AS total, MIN(channel) AS first_channel"
            + " FROM bid GROUP BY dt";

    @Test
    void insertOnlyEachRowChangesTheGroupsAsSqlSays() throws Exception {
        SqlTranslation t = SqlTranslation.of(SQL, DistinctGroupsTest.BIDS);
        for (long seed = 1; seed <= 5; seed++) {
            run(t, t.semiring(), rows(new Random(seed), 120), List.of());
        }
    }

    @Test
    void deletesTakePairsAwayWithTheirLastRow() throws Exception {
        SqlTranslation t = SqlTranslation.of(SQL, DistinctGroupsTest.BIDS);
        Ring<?> ring = DistinctGroups.ring(t.semiring());
        for (long seed = 1; seed <= 5; seed++) {
            Random random = new Random(seed);
            List<String[]> rows = rows(random, 80);
            List<Integer> deletes = new ArrayList<>();
            for (int i = 0; i < rows.size(); i++) {
                deletes.add(i);
            }
            Collections.shuffle(deletes, random);
            run(t, ring, rows, deletes);
        }
    }

    @Test
    void aDrainReportsEachChangedGroupOnce() {
        SqlTranslation t = SqlTranslation.of(
                "SELECT dt, COUNT(DISTINCT bidder) AS bidders FROM bid GROUP BY dt",
                SqlSchemas.parse("bid(bidder BIGINT NOT NULL, dt STRING)"));
        assertThat(t.semiring().payloadClass()).isEqualTo(Long.class); // a non-NULL bidder: the count alone
        DistinctGroupMap map = new DistinctGroupMap(t, t.semiring());
        map.change(Tuple.of("d1", 10L), null, 1L);
        map.change(Tuple.of("d1", 10L), 1L, 2L);
        map.change(Tuple.of("d1", 11L), null, 1L);
        List<DistinctGroupMap.Change> changes = map.drain();
        assertThat(changes).hasSize(1);
        assertThat(changes.get(0).before()).isNull();
        assertThat(t.outputRow(changes.get(0).group(), changes.get(0).after())).containsExactly("d1", 2L);
        map.change(Tuple.of("d1", 12L), null, 1L);
        map.change(Tuple.of("d1", 12L), 1L, null);
        assertThat(map.drain()).isEmpty();
    }

    @Test
    void refusesATranslationWithoutCountDistinct() {
        SqlTranslation t = SqlTranslation.of("SELECT dt, COUNT(*) FROM bid GROUP BY dt", DistinctGroupsTest.BIDS);
        assertThatThrownBy(() -> new DistinctGroupMap(t, t.semiring()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("has no COUNT(DISTINCT ...)");
    }

    /** Bids over small domains, so that pairs repeat; some bidders, prices and channels NULL. */
    private static List<String[]> rows(Random random, int n) {
        List<String[]> rows = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            rows.add(new String[] {
                String.valueOf(random.nextInt(4)),
                random.nextInt(6) == 0 ? "\\N" : String.valueOf(random.nextInt(5)),
                random.nextInt(8) == 0 ? "\\N" : String.valueOf(random.nextInt(100)),
                random.nextInt(5) == 0 ? "\\N" : "c" + random.nextInt(3),
                "d" + random.nextInt(3)
            });
        }
        return rows;
    }

    /**
     * Inserts {@code rows}, then deletes the rows at {@code deletes}, feeding the naive evaluator's changes
     * of result tuples to the fold and checking the groups after each row.
     */
    @SuppressWarnings("unchecked") // deletes only over a ring
    private static <T> void run(SqlTranslation t, Semiring<T> k, List<String[]> rows, List<Integer> deletes)
            throws Exception {
        DistinctGroupMap map = new DistinctGroupMap(t, k);
        KDatabase<T> db = new KDatabase<>(k);
        TableInput bid = t.table("bid");
        Map<Tuple, T> result = Map.of();
        List<String[]> live = new ArrayList<>();
        List<String[]> changes = new ArrayList<>(rows);
        for (int d : deletes) {
            changes.add(rows.get(d));
        }
        for (int i = 0; i < changes.size(); i++) {
            boolean delete = i >= rows.size();
            String[] row = changes.get(i);
            for (TableInput.Insert insert : bid.inserts(bid.fromText(Arrays.asList(row)))) {
                T payload = SqlTranslation.payloadIn(k, insert.payload());
                db.insert(insert.relation(), insert.tuple(), delete ? ((Ring<T>) k).negate(payload) : payload);
            }
            if (delete) {
                live.remove(row);
            } else {
                live.add(row);
            }
            Map<Tuple, T> next = new HashMap<>();
            NaiveEvaluator.evaluate(t.query(), k, db.relations()).forEach((tuple, p) -> {
                if (!k.isZero(p)) {
                    next.put(tuple, p);
                }
            });
            Set<Tuple> tuples = new HashSet<>(result.keySet());
            tuples.addAll(next.keySet());
            for (Tuple tuple : tuples) {
                T before = result.get(tuple);
                T after = next.get(tuple);
                if (before == null ? after != null : !before.equals(after)) {
                    map.change(tuple, before, after);
                }
            }
            result = next;
            map.drain();
            List<List<Object>> folded = new ArrayList<>();
            map.groups().forEach((g, group) -> folded.add(Arrays.asList(t.outputRow(g, group))));
            assertThat(folded)
                    .as("after change %d of %s", i, Arrays.toString(row))
                    .containsExactlyInAnyOrderElementsOf(bySql(live));
        }
    }

    /** The query's rows over {@code rows}, evaluated directly. */
    private static List<List<Object>> bySql(List<String[]> rows) {
        Map<String, List<String[]>> byDay = new TreeMap<>();
        for (String[] r : rows) {
            byDay.computeIfAbsent(r[4], d -> new ArrayList<>()).add(r);
        }
        List<List<Object>> out = new ArrayList<>();
        byDay.forEach((day, group) -> {
            Set<String> bidders = new HashSet<>();
            Set<String> cheap = new HashSet<>();
            Set<String> auctions = new HashSet<>();
            Long total = null;
            String first = null;
            for (String[] r : group) {
                boolean cheapRow = !isNull(r[2]) && Long.parseLong(r[2]) < 50;
                if (!isNull(r[1])) {
                    bidders.add(r[1]);
                    if (cheapRow) {
                        cheap.add(r[1]);
                    }
                }
                auctions.add(r[0]);
                if (!isNull(r[2])) {
                    total = (total == null ? 0 : total) + Long.parseLong(r[2]);
                }
                if (!isNull(r[3]) && (first == null || r[3].compareTo(first) < 0)) {
                    first = r[3];
                }
            }
            out.add(Arrays.asList(
                    day,
                    (long) group.size(),
                    (long) bidders.size(),
                    (long) cheap.size(),
                    (long) auctions.size(),
                    total,
                    first));
        });
        return out;
    }

    private static boolean isNull(String field) {
        return field.equals("\\N");
    }
}
