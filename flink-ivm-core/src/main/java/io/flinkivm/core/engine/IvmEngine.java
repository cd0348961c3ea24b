package io.flinkivm.core.engine;

import io.flinkivm.core.query.ResultChange;
import io.flinkivm.core.query.ResultCursor;
import io.flinkivm.core.query.ResultTuple;
import io.flinkivm.core.query.Tuple;
import java.util.Iterator;
import java.util.function.Consumer;

/**
 * Maintains the result of one query under single-tuple inserts.
 *
 * @param <T> the payload type of the semiring
 */
public interface IvmEngine<T> {

    /**
     * Adds {@code payload} to {@code tuple} in the physical relation {@code relation}: one insert per
     * atom of the query that names the relation, applied one after another. Payload zero is a no-op.
     *
     * @throws IllegalArgumentException if the query has no such relation or the arity is wrong
     */
    void insert(String relation, Tuple tuple, T payload);

    /** The current result, tuple by tuple with constant delay; payloads are never zero. */
    Iterator<ResultTuple<T>> enumerate();

    /**
     * The result of {@link #enumerate}, read in place: the same tuples, payloads and order, without an
     * object per tuple where the engine can (the p-hierarchical engine recovers each payload when it is
     * read). By default a cursor over {@link #enumerate}. No insert while the cursor is in use.
     */
    default ResultCursor<T> cursor() {
        return ResultCursor.over(enumerate());
    }

    /**
     * The payload of one result tuple (values of the free variables in head order); zero if absent.
     *
     * @throws IllegalArgumentException if the tuple's arity is not the number of free variables
     */
    T lookup(Tuple headTuple);

    /** Number of inserts applied so far (physical inserts, counting no-ops). */
    long insertCount();

    /** Number of entries in the engine's state (keys over all its maps), a state-size figure. */
    long stateEntries();

    /**
     * Root tuples that crossed the border so far, each once (their payload became non-zero); zero for
     * a plan without a border (the fallback).
     */
    long borderCrossings();

    /**
     * Hands {@code out} every result tuple whose payload changed since the previous call (the first
     * call: since the start), once, with its payload now and before ({@link ResultChange}). The work is
     * proportional to what changed, not to the result. Only an engine made with
     * {@link Engines#withChangelog} keeps what this needs.
     *
     * @throws IllegalStateException if the engine keeps no changelog
     */
    default void changes(Consumer<ResultChange<T>> out) {
        throw new IllegalStateException(
                getClass().getSimpleName() + " keeps no changelog; make it with" + " Engines.withChangelog");
    }
}
