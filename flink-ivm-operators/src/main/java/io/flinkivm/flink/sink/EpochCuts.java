package io.flinkivm.flink.sink;

import io.flinkivm.flink.types.EpochEnd;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.TreeMap;

/**
 * A sink's record of the epochs the ingest subtasks ended ({@link EpochEnd}), from which it knows the
 * cut of each snapshot: for every ingest subtask, the inserts in its epochs up to the snapshot's. A
 * snapshot at epoch e takes, per subtask, its latest epoch end at or below e. Ends of an older
 * generation than the newest seen are dropped (the job was rescaled and the new ingest subtasks took
 * over the old ones' counts). Kept in the sink's operator state ({@link #encode}).
 */
final class EpochCuts {
    /**
     * The cut at one epoch.
     *
     * @param snapshot whether some ingest subtask's end of exactly this epoch asked for a snapshot
     */
    record Cut(long total, long[] perSubtask, boolean deterministic, boolean snapshot) {}

    private static final class Subtask {
        long inserts;
        boolean deterministic = true;
        final ArrayDeque<long[]> pending = new ArrayDeque<>();
    }

    private int generation;
    private final TreeMap<Integer, Subtask> subtasks = new TreeMap<>();
    private long lastTotal = -1;

    /** Records an epoch end. */
    void add(EpochEnd e) {
        if (e.generation() < generation) {
            return;
        }
        if (e.generation() > generation) {
            generation = e.generation();
            subtasks.clear();
        }
        subtasks.computeIfAbsent(e.subtask(), s -> new Subtask())
                .pending
                .add(new long[] {e.epoch(), e.inserts(), (e.deterministic() ? 1 : 0) | (e.snapshot() ? 2 : 0)});
    }

    /** The lowest epoch some subtask ended, at most {@code upTo}, that no snapshot has taken yet; -1 if none. */
    long next(long upTo) {
        long lowest = -1;
        for (Subtask s : subtasks.values()) {
            long[] first = s.pending.peekFirst();
            if (first != null && first[0] <= upTo && (lowest < 0 || first[0] < lowest)) {
                lowest = first[0];
            }
        }
        return lowest;
    }

    /** Takes the cut at epoch {@code epoch}: every subtask's latest end at or below it. */
    Cut take(long epoch) {
        int width = subtasks.isEmpty() ? 0 : subtasks.lastKey() + 1;
        long[] cut = new long[width];
        long total = 0;
        boolean deterministic = true;
        boolean snapshot = false;
        for (Map.Entry<Integer, Subtask> e : subtasks.entrySet()) {
            Subtask s = e.getValue();
            while (!s.pending.isEmpty() && s.pending.peekFirst()[0] <= epoch) {
                long[] end = s.pending.pollFirst();
                s.inserts = end[1];
                s.deterministic = (end[2] & 1) != 0;
                snapshot |= end[0] == epoch && (end[2] & 2) != 0;
            }
            cut[e.getKey()] = s.inserts;
            total += s.inserts;
            deterministic &= s.deterministic;
        }
        return new Cut(total, cut, deterministic, snapshot);
    }

    /** The total of the last snapshot emitted (-1 before the first). */
    long lastTotal() {
        return lastTotal;
    }

    void emitted(long total) {
        lastTotal = total;
    }

    /** {@code generation lastTotal; subtask inserts det [epoch inserts flags]...; ...} */
    String encode() {
        StringBuilder sb = new StringBuilder().append(generation).append(' ').append(lastTotal);
        for (Map.Entry<Integer, Subtask> e : subtasks.entrySet()) {
            Subtask s = e.getValue();
            sb.append(';')
                    .append(e.getKey())
                    .append(' ')
                    .append(s.inserts)
                    .append(' ')
                    .append(s.deterministic ? 1 : 0);
            for (long[] p : s.pending) {
                sb.append(' ').append(p[0]).append(' ').append(p[1]).append(' ').append(p[2]);
            }
        }
        return sb.toString();
    }

    static EpochCuts decode(String encoded) {
        EpochCuts c = new EpochCuts();
        try {
            String[] parts = encoded.split(";");
            String[] head = parts[0].split(" ");
            c.generation = Integer.parseInt(head[0]);
            c.lastTotal = Long.parseLong(head[1]);
            for (int i = 1; i < parts.length; i++) {
                String[] f = parts[i].split(" ");
                Subtask s = new Subtask();
                s.inserts = Long.parseLong(f[1]);
                s.deterministic = f[2].equals("1");
                for (int j = 3; j + 2 < f.length; j += 3) {
                    s.pending.add(
                            new long[] {Long.parseLong(f[j]), Long.parseLong(f[j + 1]), Long.parseLong(f[j + 2])});
                }
                c.subtasks.put(Integer.parseInt(f[0]), s);
            }
        } catch (RuntimeException e) {
            throw new IllegalStateException("corrupt epoch record in state: " + encoded, e);
        }
        return c;
    }
}
