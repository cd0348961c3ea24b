package io.flinkivm.examples.cli;

import io.flinkivm.flink.OutputMode;
import java.util.Arrays;

/**
 * When {@code run}'s triggers fall: after every N accepted input lines ({@code --snapshot-every N})
 * and at the end of the input. Trigger k reflects exactly the first min(k·N, all) accepted lines, on
 * either engine at any parallelism. A trigger whose lines add no insert to the previous one's (lines
 * that made no insert) is not written: Flink does not emit a cut that adds nothing, and the in-memory
 * engine follows it. Knows, for each trigger k, how many inserts its lines made: the id a Flink
 * trigger carries (the number of inserts it reflects) maps back to k.
 */
final class RunTriggers {
    private final long every;
    private final OutputMode mode;
    private final boolean updateBefore;
    /** For trigger k (index k - 1): the inserts made by its lines; the last entry is the end of the input once known. */
    private long[] inserts = new long[16];

    private int count;
    private boolean ended;
    private long written;

    /**
     * @param every lines per trigger (0: only at the end of the input)
     * @param mode what each trigger writes: the whole result, or the changes since the previous one
     * @param updateBefore in a changelog, an update's old payload ({@code -U}) before its new one
     */
    RunTriggers(long every, OutputMode mode, boolean updateBefore) {
        if (every < 0) {
            throw new IllegalArgumentException("every must be >= 0, got " + every);
        }
        this.every = every;
        this.mode = mode;
        this.updateBefore = updateBefore;
    }

    OutputMode mode() {
        return mode;
    }

    boolean updateBefore() {
        return updateBefore;
    }

    /**
     * Called after each accepted line with the accepted lines so far and the inserts they made.
     *
     * @return the number of the trigger to write now, or 0 if none falls here (or it would add no insert)
     */
    long lineAccepted(long lines, long insertsSoFar) {
        if (every > 0 && lines % every == 0) {
            append(insertsSoFar);
            return due();
        }
        return 0;
    }

    /**
     * Called once at the end of the input with the inserts of all accepted lines.
     *
     * @return the number of the last trigger to write now, or 0 if the one before already covered every insert
     */
    long endOfInput(long insertsSoFar) {
        if (ended) {
            throw new IllegalStateException("the end of the input was already reached");
        }
        ended = true;
        append(insertsSoFar);
        return due();
    }

    private void append(long value) {
        if (count == inserts.length) {
            inserts = Arrays.copyOf(inserts, 2 * count);
        }
        inserts[count++] = value;
    }

    private long due() {
        long now = inserts[count - 1];
        if (now > written) {
            written = now;
            return count;
        }
        return 0;
    }

    /** Where the input needs a snapshot request: the inserts before each count-triggered boundary, in order. */
    long[] requestPoints() {
        return Arrays.copyOf(inserts, ended ? count - 1 : count);
    }

    /**
     * The trigger number of a Flink trigger that reflects {@code insertCount} inserts: the first k whose
     * lines made that many.
     *
     * @throws IllegalStateException if no trigger ends there
     */
    long ordinal(long insertCount) {
        int i = Arrays.binarySearch(inserts, 0, count, insertCount);
        if (i < 0) {
            throw new IllegalStateException("a trigger after " + insertCount + " inserts, where none was asked for");
        }
        while (i > 0 && inserts[i - 1] == insertCount) {
            i--;
        }
        return i + 1;
    }

    /** The inserts the last trigger reflects: all of them (after {@link #endOfInput}). */
    long lastId() {
        return count == 0 ? 0 : inserts[count - 1];
    }
}
