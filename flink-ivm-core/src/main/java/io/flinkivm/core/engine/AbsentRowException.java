package io.flinkivm.core.engine;

import org.apache.flink.annotation.PublicEvolving;

/**
 * A delete (or the old row of an update) of a row that is not there: the relation does not hold the
 * row, or holds less of it than the delete takes away (its multiplicity would go below zero). The change
 * was rejected and changed nothing; like a key violation, it is the input's mistake: a dead letter.
 */
@PublicEvolving
public final class AbsentRowException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public AbsentRowException(String message) {
        super(message);
    }
}
