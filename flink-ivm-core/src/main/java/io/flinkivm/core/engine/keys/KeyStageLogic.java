package io.flinkivm.core.engine.keys;

import io.flinkivm.core.plan.KeyedPlan;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Ring;
import io.flinkivm.core.semiring.Semiring;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.IntFunction;
import org.apache.flink.annotation.Internal;

/**
 * What the key stages of a {@link KeyedPlan} do with a row, once, for the in-memory engine and the
 * Flink operators (a plan compiled to array positions; immutable and serializable, so a Flink key
 * selector can hold it). Stage s keeps the rows of the relation of {@code plan.stages().get(s)} under
 * their key values; a copy of a stage ({@link io.flinkivm.core.plan.KeyStage}) keeps the same rows, which
 * the stage before it sends it as it stores them, and only serves lookups:
 *
 * <ul>
 *   <li>a row of that relation ({@link #keyRow}): if no row is stored under its key value, it is
 *       stored with its payload and passed on, then every row waiting for it is released (each once,
 *       extended by the values it looked up); an identical row is passed on (its payload adds
 *       downstream, as a repeated row's does), unless the relation is absorbed, where any second row
 *       breaks the key; a row with other values breaks the key: it is rejected, nothing changes;
 *   <li>a row that its atoms' selection drops goes to a stage that is looked up as a mark ({@link
 *       StageRow#isDropped()}): the stage keeps the mark, and the rows that wait for it, or look it up
 *       later, are dropped instead of waiting for good;
 *   <li>a row of an enriched atom ({@link #probe}): if its key row is stored, it is extended by the
 *       looked-up values, its payload multiplied by the key row's where the step absorbs it, and goes
 *       on (to the next lookup's stage, or to the view trees); else it waits, O(1).
 * </ul>
 *
 * Under deletes (a plan whose inputs have changelogs, over a ring) a stage keeps, instead of the rows
 * waiting for a key value, every row that looks it up (its <em>references</em>, with their payloads):
 * a change of such a row goes on extended if the key row is there; a change of a key row (an insert
 * where none is, a delete of the stored row, an update as both) retracts and re-emits the rows that look
 * it up, O(references). A second insert of an absorbed key value still breaks the key.
 *
 * <p>A row goes on to the view trees ({@link Output#toIngest}) as a row of the closed query's relation;
 * a row of an absorbed atom goes nowhere but its stage. Rows compare as relation tuples (the columns
 * the query uses), never by payload. An enriched row whose key row fails the looked-up atom's
 * selection or disagrees with it on a shared variable is dropped (it would join nothing).
 */
@Internal
public final class KeyStageLogic<T> extends KeyStageTables {
    private static final long serialVersionUID = 1L;

    /** Where a stage's rows go. */
    public interface Output<T> {
        /** {@code row} goes to stage {@code stage} (a later one). */
        void toStage(int stage, StageRow<T> row);

        /** An insert of {@code tuple} into the closed query's {@code relation} goes to the view trees. */
        void toIngest(String relation, Tuple tuple, T payload, String origin);

        /** {@code row} joins nothing: its key row was dropped, or does not fit it. By default nothing happens. */
        default void dropped(StageRow<T> row) {}

        /**
         * Multiplying {@code row}'s payload by its key row's failed ({@code e}, e.g. an overflow); the row
         * goes nowhere. By default the exception is rethrown.
         */
        default void failed(StageRow<T> row, ArithmeticException e) {
            throw e;
        }
    }

    private final Semiring<T> semiring;
    /** Under deletes, the semiring as a ring; null for an insert-only plan. */
    private final Ring<T> ring;

    public KeyStageLogic(KeyedPlan plan, Semiring<T> semiring) {
        super(checked(plan, semiring));
        this.semiring = semiring;
        this.ring = plan.inputs().isInsertOnly() || !(semiring instanceof Ring<T> r) ? null : r;
    }

    /** {@code plan}, checked to be made for {@code semiring}, which must be a ring where the plan has deletes. */
    private static KeyedPlan checked(KeyedPlan plan, Semiring<?> semiring) {
        plan.checkSemiring(semiring);
        if (!plan.inputs().isInsertOnly() && !(semiring instanceof Ring<?>)) {
            throw new IllegalArgumentException(
                    "the plan has deletes in " + String.join(", ", plan.inputs().changelog())
                            + ", which need a ring; semiring " + semiring.name() + " is not one");
        }
        return plan;
    }

    /**
     * Whether {@code v}, which stage {@code stage} returned, is reported (a dead letter): an insert that
     * breaks the key of a table whose other relation's stage reports it ({@link KeyedPlan#reporter}) is
     * rejected there too, and not reported twice; a delete that breaks it is reported by every stage.
     */
    public boolean reports(int stage, KeyViolation v) {
        return stageReports[stage] || v.retraction();
    }

    /** The number of key stages. */
    public int stages() {
        return stageRelation.length;
    }

    /** The index of {@code relation} among the query's relations, or -1. */
    public int relation(String relation) {
        Integer r = relations.get(relation);
        return r == null ? -1 : r;
    }

    /** The key stage of the query's relation with index {@code relation}, or -1. */
    public int stageOf(int relation) {
        return stageOfRelation[relation];
    }

    /** The key value of {@code row} at stage {@code stage}: of a key row, its key's columns; of an enriched row, its lookup's key. */
    public Tuple key(int stage, StageRow<T> row) {
        return row.isKeyRow()
                ? row.values().project(stageColumns[stage])
                : row.values().project(steps[row.atom()][row.step()].key);
    }

    /** The key value of a row of the query's relation with index {@code relation} under its key's columns at stage {@code stage}. */
    public Tuple keyOfRow(int stage, Tuple row) {
        return row.project(stageColumns[stage]);
    }

    /**
     * The stages a row may go to from stage {@code from} (-1: from the entry, {@link #insert}), in
     * stage order.
     */
    public List<Integer> targets(int from) {
        Set<Integer> out = new TreeSet<>();
        for (int r = 0; r < relationNames.length; r++) {
            if (from < 0 && stageOfRelation[r] >= 0) {
                out.add(stageOfRelation[r]);
            }
            if ((from < 0 && stageOfRelation[r] < 0) || (from >= 0 && stageRelation[from] == r)) {
                for (int a : enrichedOfRelation[r]) {
                    out.add(steps[a][0].stage);
                }
            }
        }
        for (LookupStep[] chain : steps) {
            for (int i = 0; from >= 0 && chain != null && i + 1 < chain.length; i++) {
                if (chain[i].stage == from) {
                    out.add(chain[i + 1].stage);
                }
            }
        }
        if (from >= 0 && nextCopy[from] >= 0) {
            out.add(nextCopy[from]);
        }
        return List.copyOf(new LinkedHashSet<>(out));
    }

    /**
     * One insert of {@code tuple} (non-zero payload, arity checked) into the query's relation with
     * index {@code relation}: to its key stage if it has one (as a mark if none of its atoms matches
     * it and rows look the stage up), else on as {@link #keyRow} passes a row on. A row that fails all
     * of its relation's atoms goes nowhere else.
     */
    public void insert(int relation, Tuple tuple, T payload, String origin, Output<T> out) {
        change(relation, tuple, payload, origin, false, out);
    }

    /**
     * Under deletes: a delete (or an update's old row) that takes {@code payload} away from {@code tuple}
     * (checked against the relation's rows before) in the query's relation with index {@code relation},
     * the change of the inverse payload, as {@link #insert} routes an insert.
     */
    public void retract(int relation, Tuple tuple, T payload, String origin, Output<T> out) {
        if (ring == null) {
            throw new IllegalStateException(
                    "a delete of " + relationNames[relation] + tuple + " in an insert-only plan");
        }
        change(relation, tuple, ring.negate(payload), origin, true, out);
    }

    private void change(int relation, Tuple tuple, T payload, String origin, boolean retraction, Output<T> out) {
        int stage = stageOfRelation[relation];
        if (stage < 0) {
            pass(relation, tuple, payload, origin, retraction, out);
            return;
        }
        if (matchesAnAtom(relation, tuple)) {
            out.toStage(stage, new StageRow<>(StageRow.KEY_ROW, 0, tuple, payload, origin, retraction));
        } else if (stageLookedUp[stage]) {
            out.toStage(stage, new StageRow<>(StageRow.DROPPED, 0, tuple, payload, origin, retraction));
        }
    }

    /**
     * A row of the query's relation with index {@code relation} that its table's filter dropped (the
     * SQL front end): to its key stage as a mark where rows look that stage up; else it goes nowhere.
     */
    public void dropped(int relation, Tuple tuple, T payload, String origin, Output<T> out) {
        int stage = stageOfRelation[relation];
        if (stage >= 0 && stageLookedUp[stage]) {
            out.toStage(stage, StageRow.dropped(tuple, payload, origin));
        }
    }

    /** Under deletes: a delete of a row that its table's filter dropped, as {@link #dropped} routes it. */
    public void droppedRetraction(int relation, Tuple tuple, T payload, String origin, Output<T> out) {
        if (ring == null) {
            throw new IllegalStateException(
                    "a delete of " + relationNames[relation] + tuple + " in an insert-only plan");
        }
        int stage = stageOfRelation[relation];
        if (stage >= 0 && stageLookedUp[stage]) {
            out.toStage(stage, new StageRow<>(StageRow.DROPPED, 0, tuple, ring.negate(payload), origin, true));
        }
    }

    /** Whether the query's relation with index {@code relation} has a key stage that rows look up (and so needs its dropped rows). */
    public boolean needsDropped(int relation) {
        int stage = stageOfRelation[relation];
        return stage >= 0 && stageLookedUp[stage];
    }

    private boolean matchesAnAtom(int relation, Tuple tuple) {
        for (int a : atomsOfRelation[relation]) {
            if (matchers[a].match(tuple) != null) {
                return true;
            }
        }
        return false;
    }

    /**
     * A row of relation {@code relation} goes on: as it is for its atoms that neither gain nor are
     * absorbed, to its enriched atoms' first lookups.
     */
    private void pass(int relation, Tuple tuple, T payload, String origin, boolean retraction, Output<T> out) {
        if (direct[relation]) {
            out.toIngest(relationNames[relation], tuple, payload, origin);
        }
        for (int a : enrichedOfRelation[relation]) {
            if (matchers[a].match(tuple) != null) {
                out.toStage(steps[a][0].stage, new StageRow<>(a, 0, tuple, payload, origin, retraction));
            }
        }
    }

    /**
     * A row of stage {@code stage}'s relation, kept or dropped (see the class comment): stored and
     * passed on (by the relation's first stage; a copy only stores it), sent to the next copy, with
     * the rows waiting for it released (or dropped); passed on if identical to the stored row of a
     * relation that is not absorbed; else rejected.
     *
     * @return the violation if the row breaks the key (then nothing changed), else null
     */
    public KeyViolation keyRow(int stage, KeyStageStore<T> store, StageRow<T> row, Output<T> out) {
        if (ring != null) {
            return keyRowChange(stage, store, row, out);
        }
        Tuple key = row.values().project(stageColumns[stage]);
        KeyRow<T> stored = store.keyRow(key);
        boolean first = stageCopy[stage] == 0;
        if (stored != null) {
            boolean same = stored.values().equals(row.values()) && stored.dropped() == row.isDropped();
            if (first && (stageAbsorbs[stage] || !same)) {
                return new KeyViolation(
                        relationNames[stageRelation[stage]],
                        stageKeys[stage],
                        stageColumns[stage],
                        row.values(),
                        row.isDropped(),
                        stored.values(),
                        stored.dropped(),
                        stageAbsorbs[stage],
                        false);
            }
            if (first && !row.isDropped()) {
                pass(stageRelation[stage], row.values(), row.payload(), row.origin(), row.retraction(), out);
            }
            return null;
        }
        KeyRow<T> kept = row.isDropped() ? KeyRow.droppedRow(row.values()) : KeyRow.kept(row.values(), row.payload());
        if (first && !row.isDropped()) {
            pass(stageRelation[stage], row.values(), row.payload(), row.origin(), row.retraction(), out);
        }
        store.putKeyRow(key, kept);
        if (nextCopy[stage] >= 0) {
            out.toStage(nextCopy[stage], row);
        }
        for (StageRow<T> waiting : store.takeWaiting(key)) {
            if (kept.dropped()) {
                out.dropped(waiting);
            } else {
                extend(waiting, kept, out);
            }
        }
        return null;
    }

    /**
     * A row of an enriched atom at stage {@code stage}: extended and sent on if its key row is stored,
     * dropped if that row is a mark, else kept waiting.
     */
    public void probe(int stage, KeyStageStore<T> store, StageRow<T> row, Output<T> out) {
        if (ring != null) {
            probeChange(stage, store, row, out);
            return;
        }
        Tuple key = key(stage, row);
        KeyRow<T> stored = store.keyRow(key);
        if (stored == null) {
            store.addWaiting(key, row);
        } else if (stored.dropped()) {
            out.dropped(row);
        } else {
            extend(row, stored, out);
        }
    }

    /**
     * {@code row} extended by its step's values from {@code keyRow} (its payload multiplied by the key
     * row's where the step absorbs it), to the next stage or the view trees.
     */
    private void extend(StageRow<T> row, KeyRow<T> keyRow, Output<T> out) {
        LookupStep step = steps[row.atom()][row.step()];
        T payload = row.payload();
        if (step.payload) {
            try {
                payload = semiring.times(payload, keyRow.payload());
            } catch (ArithmeticException e) {
                out.failed(row, e);
                return;
            }
        }
        forward(row, payload, keyRow.values(), out);
    }

    /** {@code row} extended by its step's values from {@code keyRow}, with {@code payload}, to the next stage or the view trees. */
    private void forward(StageRow<T> row, T payload, Tuple keyRow, Output<T> out) {
        int a = row.atom();
        Tuple extended = steps[a][row.step()].extend(row.values(), keyRow);
        if (extended == null) {
            out.dropped(row);
            return;
        }
        if (row.step() + 1 < steps[a].length) {
            out.toStage(steps[a][row.step() + 1].stage, row.next(row.step() + 1, extended, payload));
        } else {
            out.toIngest(closedRelation[a], extended.project(finalColumns[a]), payload, row.origin());
        }
    }

    /** Under deletes: a row that looks a key up, as a stage keeps it among the key's references: atom, step, values. */
    public static Tuple reference(StageRow<?> row) {
        Object[] out = new Object[2 + row.values().arity()];
        out[0] = (long) row.atom();
        out[1] = (long) row.step();
        for (int i = 0; i < row.values().arity(); i++) {
            out[2 + i] = row.values().get(i);
        }
        return Tuple.wrap(out);
    }

    /** The row a reference stands for, with {@code payload}. */
    private static <T> StageRow<T> referenced(Tuple reference, T payload) {
        int[] values = new int[reference.arity() - 2];
        for (int i = 0; i < values.length; i++) {
            values[i] = 2 + i;
        }
        return new StageRow<>(
                ((Long) reference.get(0)).intValue(),
                ((Long) reference.get(1)).intValue(),
                reference.project(values),
                payload,
                null);
    }

    /**
     * Under deletes, a change of a row of stage {@code stage}'s relation (kept or dropped): an insert
     * where no row is stored stores it and emits the rows that look it up; an identical insert of a
     * relation that is not absorbed adds its payload; any other insert breaks the key. A retraction of
     * the stored row takes its payload away (the row leaves at zero) and retracts from the rows that
     * look it up what they took of it; a retraction of another row is rejected.
     */
    private KeyViolation keyRowChange(int stage, KeyStageStore<T> store, StageRow<T> row, Output<T> out) {
        Tuple key = row.values().project(stageColumns[stage]);
        KeyRow<T> stored = store.keyRow(key);
        boolean first = stageCopy[stage] == 0;
        boolean same = stored != null && stored.values().equals(row.values()) && stored.dropped() == row.isDropped();
        // A delete takes away at most what the stored row holds (deletes of key rows come unchecked: the
        // stage checks them, keyed by the key value, so that a key row's update keeps its order).
        boolean removable = same && (row.isDropped() || ring.canRemove(stored.payload(), ring.negate(row.payload())));
        if (!row.retraction() && stored != null && (stageAbsorbs[stage] || !same) || row.retraction() && !removable) {
            return first
                    ? new KeyViolation(
                            relationNames[stageRelation[stage]],
                            stageKeys[stage],
                            stageColumns[stage],
                            row.values(),
                            row.isDropped(),
                            stored == null ? null : stored.values(),
                            stored != null && stored.dropped(),
                            stageAbsorbs[stage],
                            row.retraction())
                    : null;
        }
        KeyRow<T> after;
        if (row.isDropped()) {
            after = row.retraction() ? null : KeyRow.droppedRow(row.values());
        } else {
            T sum = stored == null ? row.payload() : ring.plus(stored.payload(), row.payload());
            after = ring.isZero(sum) ? null : KeyRow.kept(row.values(), sum);
        }
        if (after == null) {
            store.removeKeyRow(key);
        } else {
            store.putKeyRow(key, after);
        }
        if (first && !row.isDropped()) {
            pass(stageRelation[stage], row.values(), row.payload(), row.origin(), row.retraction(), out);
        }
        if (nextCopy[stage] >= 0) {
            out.toStage(nextCopy[stage], row);
        }
        if (row.isDropped()) {
            return null;
        }
        // What the rows that look the key up took of it changes: by the change, where they take its
        // payload; by their own payload, where they only take its values and it comes or goes.
        int presence = stored == null ? 1 : after == null ? -1 : 0;
        for (Map.Entry<Tuple, T> r : store.references(key)) {
            StageRow<T> ref = referenced(r.getKey(), r.getValue());
            LookupStep step = steps[ref.atom()][ref.step()];
            T payload;
            try {
                payload = step.payload
                        ? semiring.times(r.getValue(), row.payload())
                        : presence == 0 ? null : presence > 0 ? r.getValue() : ring.negate(r.getValue());
            } catch (ArithmeticException e) {
                out.failed(ref, e);
                continue;
            }
            if (payload != null) {
                forward(ref, payload, row.values(), out);
            }
        }
        return null;
    }

    /**
     * Under deletes, a change of a row that looks stage {@code stage}'s key up: added to the key value's
     * references, and extended and sent on if the key row is there (dropped if it is a mark).
     */
    private void probeChange(int stage, KeyStageStore<T> store, StageRow<T> row, Output<T> out) {
        Tuple key = key(stage, row);
        Tuple reference = reference(row);
        T before = store.reference(key, reference);
        T sum = before == null ? row.payload() : ring.plus(before, row.payload());
        store.putReference(key, reference, ring.isZero(sum) ? null : sum);
        KeyRow<T> stored = store.keyRow(key);
        if (stored == null) {
            return;
        }
        if (stored.dropped()) {
            out.dropped(row);
        } else {
            extend(row, stored, out);
        }
    }

    /**
     * The relations the head's closure looks up (indexes among the query's relations), whose rows a
     * runtime that looks results up by the query's head must keep ({@link #closedHead}).
     */
    public Set<Integer> headRelations() {
        Set<Integer> out = new TreeSet<>();
        for (LookupStep s : headSteps) {
            out.add(s.relation);
        }
        return out;
    }

    /** The key's columns of the query's relation with index {@code relation}, which has a key. */
    public int[] keyColumns(KeyedPlan plan, int relation) {
        return plan.query().keyOf(relationNames[relation]).positionArray();
    }

    /**
     * The closed query's head tuple of a result tuple {@code head} of the query: the head's closure
     * looked up in the rows stored under the keys ({@code rows} by relation index, see
     * {@link #headRelations}); null if a row it needs is missing or does not fit (then the closed query
     * has no such result tuple).
     */
    public Tuple closedHead(Tuple head, IntFunction<KeyStageStore<T>> rows) {
        Tuple values = head;
        for (LookupStep step : headSteps) {
            KeyRow<T> stored = rows.apply(step.relation).keyRow(values.project(step.key));
            values = stored == null || stored.dropped() ? null : step.extend(values, stored.values());
            if (values == null) {
                return null;
            }
        }
        return values.project(headColumns);
    }
}
