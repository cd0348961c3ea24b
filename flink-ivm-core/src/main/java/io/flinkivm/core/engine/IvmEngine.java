package io.flinkivm.core.engine;

import io.flinkivm.core.query.ChangeKind;
import io.flinkivm.core.query.ResultChange;
import io.flinkivm.core.query.ResultCursor;
import io.flinkivm.core.query.ResultTuple;
import io.flinkivm.core.query.Tuple;
import java.util.Iterator;
import java.util.function.Consumer;
import org.apache.flink.annotation.PublicEvolving;

/**
 * Maintains the result of one query under single-tuple inserts, and, for a plan whose
 * {@linkplain io.flinkivm.core.plan.MaintenancePlan#inputs() inputs} have deletes (over a ring),
 * deletes and updates of those relations' rows. Every change is atomic: one that fails changes nothing.
 *
 * @param <T> the payload type of the semiring
 */
@PublicEvolving
public interface IvmEngine<T> {

    /**
     * Adds {@code payload} to {@code tuple} in the physical relation {@code relation}: one insert per
     * atom of the query that names the relation, applied one after another. Payload zero is a no-op.
     *
     * @throws IllegalArgumentException if the query has no such relation or the arity is wrong
     */
    void insert(String relation, Tuple tuple, T payload);

    /**
     * Takes {@code payload} away from {@code tuple} in {@code relation}, a relation with deletes in the
     * plan's inputs: the insert of the inverse payload, after checking that the row holds it. A row whose
     * payload reaches zero leaves, and so do the view entries and result tuples that only it supported.
     *
     * @throws AbsentRowException if the row is not there, or holds less than {@code payload} (nothing
     *     changed)
     * @throws IllegalArgumentException if the relation is insert-only in the plan, unknown, or the
     *     arity is wrong
     */
    default void delete(String relation, Tuple tuple, T payload) {
        throw new IllegalArgumentException("a delete of " + relation + tuple + ", but every relation of this "
                + getClass().getSimpleName() + "'s plan is insert-only: plan the query with the relations that"
                + " receive deletes (Planner.plan(..., Inputs.changelog(...))) over a ring");
    }

    /**
     * An update of a row of {@code relation}: {@code before} gives up {@code beforePayload}, then
     * {@code after} gains {@code afterPayload}, both or neither.
     *
     * @throws AbsentRowException if {@code before} does not hold {@code beforePayload} (nothing changed)
     */
    default void update(String relation, Tuple before, T beforePayload, Tuple after, T afterPayload) {
        delete(relation, before, beforePayload);
        try {
            insert(relation, after, afterPayload);
        } catch (RuntimeException e) {
            insert(relation, before, beforePayload);
            throw e;
        }
    }

    /**
     * One change of a changelog: an insert or the new row of an update adds {@code payload}
     * ({@link #insert}), a delete or the old row of an update takes it away ({@link #delete}).
     */
    default void apply(ChangeKind kind, String relation, Tuple tuple, T payload) {
        if (kind.isRetraction()) {
            delete(relation, tuple, payload);
        } else {
            insert(relation, tuple, payload);
        }
    }

    /**
     * A row of {@code relation} that its table's filter dropped (the SQL front end drops such rows before
     * they become inserts), or ({@code retraction}) that row's delete: where the plan looks the
     * relation's key up, the key stage keeps a mark of it (one small entry per key value), so that the
     * rows that look it up are dropped at once instead of waiting for good. Other engines ignore it.
     *
     * @throws KeyViolationException if the row breaks a key the plan checks (nothing changed)
     * @throws IllegalArgumentException if the query has no such relation or the arity is wrong
     */
    default void filtered(String relation, Tuple tuple, boolean retraction) {}

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

    /** Number of changes applied so far (physical inserts, and deletes, counting no-ops). */
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
     * call: since the start), once, with its payload now and before ({@link ResultChange}; a tuple that
     * left the result has payload null). The work is
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
