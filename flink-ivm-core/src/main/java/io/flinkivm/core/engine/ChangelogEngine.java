package io.flinkivm.core.engine;

import io.flinkivm.core.engine.maps.MemoryMaps;
import io.flinkivm.core.engine.maps.OpenHashMap;
import io.flinkivm.core.engine.maps.StateCounts;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.ResultChange;
import io.flinkivm.core.query.ResultCursor;
import io.flinkivm.core.query.ResultTuple;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Ring;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * An engine for a plan whose inputs have deletes: the engine of the plan behind the {@link LiveRows} of
 * each relation with deletes. An insert goes on as it is; a delete is checked against the row's payload
 * (a row that is not there, or holds less, is rejected: {@link AbsentRowException}) and goes on as the
 * insert of the inverse payload, which the plan's engine maintains like any other (the q-hierarchical
 * engine, or the fallback, over the ring). The live rows are written only once the engine behind
 * accepted the change, so a change that fails there changes nothing here either. Not thread-safe.
 */
final class ChangelogEngine<T> implements IvmEngine<T> {
    private final IvmEngine<T> engine;
    private final ConjunctiveQuery query;
    private final LiveRows<T> logic;
    private final Map<String, OpenHashMap<Tuple, T>> rows = new HashMap<>();
    private final List<String> changelog;

    ChangelogEngine(MaintenancePlan plan, Ring<T> ring, IvmEngine<T> engine, MemoryMaps maps) {
        this.engine = engine;
        this.query = plan.query();
        this.logic = new LiveRows<>(ring);
        this.changelog = plan.inputs().changelog();
        for (String r : plan.inputs().changelog()) {
            rows.put(r, maps.map(StateCounts.Role.DELTA_JOIN));
        }
    }

    @Override
    public void insert(String relation, Tuple tuple, T payload) {
        change(relation, tuple, payload, false);
    }

    @Override
    public void delete(String relation, Tuple tuple, T payload) {
        OpenHashMap<Tuple, T> live = rows.get(relation);
        if (live == null) {
            checkArity(relation, tuple);
            throw new IllegalArgumentException("a delete of " + relation + tuple + ", but " + relation
                    + " is insert-only in this plan; it has deletes in "
                    + String.join(", ", changelog)
                    + ": plan the query with " + relation + " among its changelog relations (Inputs.changelog)");
        }
        change(relation, tuple, payload, true);
    }

    /** A dropped row is no row of the relation: it goes to the key stages as it is. */
    @Override
    public void filtered(String relation, Tuple tuple, boolean retraction) {
        engine.filtered(relation, tuple, retraction);
    }

    private void change(String relation, Tuple tuple, T payload, boolean delete) {
        OpenHashMap<Tuple, T> live = rows.get(relation);
        if (live == null) {
            engine.insert(relation, tuple, payload);
            return;
        }
        checkArity(relation, tuple);
        T updated = logic.after(live, relation, tuple, payload, delete);
        if (engine instanceof KeyedEngine<T> keyed) {
            // Key stages tell a delete from an insert: a second insert of an absorbed key value breaks the key.
            keyed.change(relation, tuple, payload, delete);
        } else {
            engine.insert(relation, tuple, delete ? logic.inverse(payload) : payload);
        }
        logic.write(live, tuple, updated);
    }

    private void checkArity(String relation, Tuple tuple) {
        int arity = query.arityOf(relation);
        if (arity < 0) {
            throw new IllegalArgumentException("unknown relation " + relation + "; " + query.name() + " reads "
                    + String.join(", ", query.relations()));
        }
        if (arity != tuple.arity()) {
            throw new IllegalArgumentException("relation " + relation + " has arity " + arity + " in " + query.name()
                    + ", got " + tuple.arity() + " values: " + tuple);
        }
    }

    @Override
    public Iterator<ResultTuple<T>> enumerate() {
        return engine.enumerate();
    }

    @Override
    public ResultCursor<T> cursor() {
        return engine.cursor();
    }

    @Override
    public T lookup(Tuple headTuple) {
        return engine.lookup(headTuple);
    }

    @Override
    public long insertCount() {
        return engine.insertCount();
    }

    /** The engine's entries and the live rows of the relations with deletes. */
    @Override
    public long stateEntries() {
        long total = engine.stateEntries();
        for (OpenHashMap<Tuple, T> m : rows.values()) {
            total += m.size();
        }
        return total;
    }

    @Override
    public long borderCrossings() {
        return engine.borderCrossings();
    }

    @Override
    public void changes(Consumer<ResultChange<T>> out) {
        engine.changes(out);
    }
}
