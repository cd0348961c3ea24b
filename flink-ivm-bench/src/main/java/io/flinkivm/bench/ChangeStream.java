package io.flinkivm.bench;

import io.flinkivm.core.query.ChangeKind;
import io.flinkivm.core.query.Tuple;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * A changelog of {@code n} changes made from a workload's inserts, valid for any consumer that trusts
 * its input (Flink SQL's {@code fromChangelogStream}): {@value #DELETE_PERCENT} % deletes,
 * {@value #UPDATE_PERCENT} % updates and the rest inserts, their order shuffled with the seed. A delete
 * ({@code -D}) names a live row, uniform over all live rows, with the tuple and payload it was inserted
 * with. An update takes the next insert of the workload's stream, say into R, and replaces a live row of
 * R, uniform over R's live rows, by it: {@code -U} of the old row, then {@code +U} of the new one, which
 * is live from then on. So every {@code -D} and {@code -U} names a row inserted before it and not yet
 * taken away, and a row's changes come in the stream's order. A delete or update that finds no row to
 * name (early in the stream) becomes an insert, and the next insert that can be one becomes the
 * delete or update instead, so the shares stay exact but for a tail this small stream could not place.
 */
final class ChangeStream {
    static final int DELETE_PERCENT = 20;
    static final int UPDATE_PERCENT = 20;

    private final Random random;
    private final InsertStream inserts;
    private final Map<String, LiveRows> live = new HashMap<>();
    private final List<LiveRows> relations = new ArrayList<>();
    private final List<String> relation = new ArrayList<>();
    private final List<Tuple> tuple = new ArrayList<>();
    private final List<Long> payload = new ArrayList<>();
    private final List<ChangeKind> kind = new ArrayList<>();
    private int nextInsert;
    private int liveRows;

    private ChangeStream(InsertStream inserts, long seed, int n) {
        this.inserts = inserts;
        this.random = new Random(seed * 1_000_003L + n * 31L + 17);
    }

    /** The number of deletes among {@code n} changes (and of updates: the shares are equal). */
    static int deletes(int n) {
        return (int) Math.round(n * DELETE_PERCENT / 100.0);
    }

    /** The number of updates among {@code n} changes. */
    static int updates(int n) {
        return (int) Math.round(n * UPDATE_PERCENT / 100.0);
    }

    /**
     * {@code n} changes from {@code inserts}, which must hold at least the inserts and updates' new rows
     * among them ({@code n - deletes(n)}); the same arguments give the same stream.
     *
     * @throws IllegalArgumentException if {@code inserts} is too short
     */
    static InsertStream of(InsertStream inserts, int n, long seed) {
        if (inserts.size() < n - deletes(n)) {
            throw new IllegalArgumentException(
                    "a changelog of " + n + " changes needs " + (n - deletes(n)) + " inserts, got " + inserts.size());
        }
        return new ChangeStream(inserts, seed, n).build(n);
    }

    private InsertStream build(int n) {
        ChangeKind[] schedule = new ChangeKind[n];
        int d = deletes(n);
        int u = updates(n);
        Arrays.fill(schedule, 0, d, ChangeKind.DELETE);
        Arrays.fill(schedule, d, d + u, ChangeKind.UPDATE_AFTER);
        Arrays.fill(schedule, d + u, n, ChangeKind.INSERT);
        for (int i = n - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            ChangeKind t = schedule[i];
            schedule[i] = schedule[j];
            schedule[j] = t;
        }
        int owedDeletes = 0;
        int owedUpdates = 0;
        for (ChangeKind planned : schedule) {
            if (planned == ChangeKind.DELETE) {
                if (!delete()) {
                    owedDeletes++;
                    insert();
                }
            } else if (planned == ChangeKind.UPDATE_AFTER) {
                if (!update()) {
                    owedUpdates++;
                    insert();
                }
            } else if (owedDeletes > 0 && delete()) {
                owedDeletes--;
            } else if (owedUpdates > 0 && update()) {
                owedUpdates--;
            } else {
                insert();
            }
        }
        return new InsertStream(
                relation.toArray(String[]::new),
                tuple.toArray(Tuple[]::new),
                payload.toArray(Long[]::new),
                kind.toArray(ChangeKind[]::new),
                n,
                inserts.distribution(),
                inserts.seed());
    }

    private void insert() {
        int i = nextInsert++;
        add(ChangeKind.INSERT, inserts.relation(i), inserts.tuple(i), inserts.payload(i));
    }

    /** A delete of a live row, uniform over all; false if there is none. */
    private boolean delete() {
        if (liveRows == 0) {
            return false;
        }
        int k = random.nextInt(liveRows);
        for (LiveRows rows : relations) {
            if (k < rows.size) {
                int row = rows.removeAt(k);
                liveRows--;
                add(ChangeKind.DELETE, relation.get(row), tuple.get(row), payload.get(row));
                return true;
            }
            k -= rows.size;
        }
        throw new IllegalStateException("live rows miscounted");
    }

    /** The next insert replaces a live row of its relation; false if that relation has none. */
    private boolean update() {
        LiveRows rows = live.get(inserts.relation(nextInsert));
        if (rows == null || rows.size == 0) {
            return false;
        }
        int row = rows.removeAt(random.nextInt(rows.size));
        liveRows--;
        add(ChangeKind.UPDATE_BEFORE, relation.get(row), tuple.get(row), payload.get(row));
        int i = nextInsert++;
        add(ChangeKind.UPDATE_AFTER, inserts.relation(i), inserts.tuple(i), inserts.payload(i));
        return true;
    }

    private void add(ChangeKind k, String r, Tuple t, Long p) {
        if (!k.isRetraction()) {
            LiveRows rows = live.get(r);
            if (rows == null) {
                rows = new LiveRows();
                live.put(r, rows);
                relations.add(rows);
            }
            rows.add(relation.size());
            liveRows++;
        }
        relation.add(r);
        tuple.add(t);
        payload.add(p);
        kind.add(k);
    }

    /** The record indices of one relation's live rows, in no order; removal swaps in the last. */
    private static final class LiveRows {
        private int[] rows = new int[16];
        private int size;

        void add(int row) {
            if (size == rows.length) {
                rows = Arrays.copyOf(rows, size * 2);
            }
            rows[size++] = row;
        }

        int removeAt(int k) {
            int row = rows[k];
            rows[k] = rows[--size];
            return row;
        }
    }
}
