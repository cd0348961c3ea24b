package io.flinkivm.flink.sink;

import io.flinkivm.flink.types.EpochEnd;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.annotation.Internal;

/**
 * A sink's record of the epochs the ingest subtasks ended ({@link EpochEnd}), from which it knows the
 * cut of each snapshot: for every ingest subtask, the inserts in its epochs up to the snapshot's. A
 * snapshot at epoch e takes, per subtask, its latest epoch end at or below e. Ends of an older
 * generation than the newest seen are dropped (the job was rescaled and the new ingest subtasks took
 * over the old ones' counts). Kept in the sink's operator state ({@link #encode}).
 *
 * <p>A cut's event time is the smallest over the subtasks of the event time of their end in the cut
 * (as Flink's watermark is the smallest over an operator's input channels): every row the cut holds
 * was accepted before it, and no row after it goes into a window closed at it.
 */
@Internal
public final class EpochCuts {
    /**
     * The cut at one epoch.
     *
     * @param snapshot whether some ingest subtask's end of exactly this epoch asked for a snapshot
     * @param eventTime the smallest event time of the subtasks' ends in the cut ({@link
     *     EpochEnd#NO_EVENT_TIME} when some subtask has none in it)
     */
    public record Cut(long total, long[] perSubtask, boolean deterministic, boolean snapshot, long eventTime) {}

    /** The prefix of the encoding with event times (the one before had none). */
    private static final String TIMED = "t";

    private static final class Subtask {
        long inserts;
        boolean deterministic = true;
        long eventTime = EpochEnd.NO_EVENT_TIME;
        final ArrayDeque<long[]> pending = new ArrayDeque<>();
    }

    private int generation;
    private final TreeMap<Integer, Subtask> subtasks = new TreeMap<>();
    private long lastTotal = -1;

    /** Records an epoch end. */
    public void add(EpochEnd e) {
        if (e.generation() < generation) {
            return;
        }
        if (e.generation() > generation) {
            generation = e.generation();
            subtasks.clear();
        }
        subtasks.computeIfAbsent(e.subtask(), s -> new Subtask()).pending.add(new long[] {
            e.epoch(), e.inserts(), (e.deterministic() ? 1 : 0) | (e.snapshot() ? 2 : 0), e.eventTime()
        });
    }

    /** The lowest epoch some subtask ended, at most {@code upTo}, that no snapshot has taken yet; -1 if none. */
    public long next(long upTo) {
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
    public Cut take(long epoch) {
        int width = subtasks.isEmpty() ? 0 : subtasks.lastKey() + 1;
        long[] cut = new long[width];
        long total = 0;
        boolean deterministic = true;
        boolean snapshot = false;
        long eventTime = Long.MAX_VALUE;
        for (Map.Entry<Integer, Subtask> e : subtasks.entrySet()) {
            Subtask s = e.getValue();
            while (!s.pending.isEmpty() && s.pending.peekFirst()[0] <= epoch) {
                long[] end = s.pending.pollFirst();
                s.inserts = end[1];
                s.deterministic = (end[2] & 1) != 0;
                s.eventTime = Math.max(s.eventTime, end[3]);
                snapshot |= end[0] == epoch && (end[2] & 2) != 0;
            }
            cut[e.getKey()] = s.inserts;
            total += s.inserts;
            deterministic &= s.deterministic;
            eventTime = Math.min(eventTime, s.eventTime);
        }
        return new Cut(total, cut, deterministic, snapshot, subtasks.isEmpty() ? EpochEnd.NO_EVENT_TIME : eventTime);
    }

    /** The smallest event time of the subtasks' ends taken so far ({@link EpochEnd#NO_EVENT_TIME} if none). */
    public long eventTime() {
        long min = Long.MAX_VALUE;
        for (Subtask s : subtasks.values()) {
            min = Math.min(min, s.eventTime);
        }
        return subtasks.isEmpty() ? EpochEnd.NO_EVENT_TIME : min;
    }

    /** The total of the last snapshot emitted (-1 before the first). */
    long lastTotal() {
        return lastTotal;
    }

    void emitted(long total) {
        lastTotal = total;
    }

    /**
     * {@code t generation lastTotal; subtask inserts det eventTime [epoch inserts flags eventTime]...; ...};
     * without the leading {@code t}, the encoding before event times: no event time per subtask or end.
     */
    public String encode() {
        StringBuilder sb =
                new StringBuilder(TIMED).append(generation).append(' ').append(lastTotal);
        for (Map.Entry<Integer, Subtask> e : subtasks.entrySet()) {
            Subtask s = e.getValue();
            sb.append(';')
                    .append(e.getKey())
                    .append(' ')
                    .append(s.inserts)
                    .append(' ')
                    .append(s.deterministic ? 1 : 0)
                    .append(' ')
                    .append(s.eventTime);
            for (long[] p : s.pending) {
                sb.append(' ')
                        .append(p[0])
                        .append(' ')
                        .append(p[1])
                        .append(' ')
                        .append(p[2])
                        .append(' ')
                        .append(p[3]);
            }
        }
        return sb.toString();
    }

    public static EpochCuts decode(String encoded) {
        EpochCuts c = new EpochCuts();
        boolean timed = encoded.startsWith(TIMED);
        int width = timed ? 4 : 3;
        try {
            String[] parts = (timed ? encoded.substring(TIMED.length()) : encoded).split(";");
            String[] head = parts[0].split(" ");
            c.generation = Integer.parseInt(head[0]);
            c.lastTotal = Long.parseLong(head[1]);
            for (int i = 1; i < parts.length; i++) {
                String[] f = parts[i].split(" ");
                Subtask s = new Subtask();
                s.inserts = Long.parseLong(f[1]);
                s.deterministic = f[2].equals("1");
                int from = 3;
                if (timed) {
                    s.eventTime = Long.parseLong(f[3]);
                    from = 4;
                }
                for (int j = from; j + width - 1 < f.length; j += width) {
                    s.pending.add(new long[] {
                        Long.parseLong(f[j]),
                        Long.parseLong(f[j + 1]),
                        Long.parseLong(f[j + 2]),
                        timed ? Long.parseLong(f[j + 3]) : EpochEnd.NO_EVENT_TIME
                    });
                }
                c.subtasks.put(Integer.parseInt(f[0]), s);
            }
        } catch (RuntimeException e) {
            throw new IllegalStateException("corrupt epoch record in state: " + encoded, e);
        }
        return c;
    }
}
