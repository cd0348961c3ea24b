package io.flinkivm.core.query;

import org.apache.flink.annotation.PublicEvolving;

/**
 * The kind of one change of a changelog input, as Flink's {@code RowKind} names them: an insert, a
 * delete, and the two halves of an update. A delete and the first half of an update take a row's
 * payload away ({@link #isRetraction()}); the other two add one.
 */
@PublicEvolving
public enum ChangeKind {
    /** A new row, or more of a row: {@code +I}. */
    INSERT("+I"),
    /** A row, or part of its payload, goes: {@code -D}. */
    DELETE("-D"),
    /** The old row of an update, taken away: {@code -U}. */
    UPDATE_BEFORE("-U"),
    /** The new row of an update, added: {@code +U}. */
    UPDATE_AFTER("+U");

    private final String shortString;

    ChangeKind(String shortString) {
        this.shortString = shortString;
    }

    /** {@code +I}, {@code -D}, {@code -U} or {@code +U}. */
    public String shortString() {
        return shortString;
    }

    /** Whether the change takes a payload away (a delete, or the old row of an update). */
    public boolean isRetraction() {
        return this == DELETE || this == UPDATE_BEFORE;
    }

    /** The kind whose {@link #shortString()} is {@code text}, or null. */
    public static ChangeKind of(String text) {
        for (ChangeKind k : values()) {
            if (k.shortString.equals(text)) {
                return k;
            }
        }
        return null;
    }
}
