package io.flinkivm.core.engine;

import io.flinkivm.core.engine.keys.KeyRow;
import io.flinkivm.core.engine.keys.KeyStageLogic;
import io.flinkivm.core.engine.keys.KeyViolation;
import io.flinkivm.core.engine.keys.MemoryKeyStageStore;
import io.flinkivm.core.engine.keys.StageRow;
import io.flinkivm.core.plan.KeyedPlan;
import io.flinkivm.core.query.AtomRouter;
import io.flinkivm.core.query.ResultChange;
import io.flinkivm.core.query.ResultCursor;
import io.flinkivm.core.query.ResultTuple;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Ring;
import io.flinkivm.core.semiring.Semiring;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.function.Consumer;
import org.apache.flink.annotation.Internal;

/**
 * The in-memory engine of a {@link KeyedPlan}: its key stages ({@link KeyStageLogic} over hash maps)
 * in front of the engine of the closed query's plan, results over the query's head. An insert that
 * breaks a key with a stage throws {@link KeyViolationException} and changes nothing; keys the plan
 * trusts are not checked, and the rows of their relations are kept (the first per key value) only to
 * look results up by the query's head. A key row that releases waiting rows makes several inserts into
 * the closed engine, each atomic there: if one overflows, the exception reaches this insert's caller
 * and the inserts before it stay. Not thread-safe.
 */
@Internal
public final class KeyedEngine<T> implements IvmEngine<T> {
    private final KeyedPlan plan;
    private final Semiring<T> semiring;
    private final IvmEngine<T> closed;
    private final KeyStageLogic<T> logic;
    private final AtomRouter router;
    private final MemoryKeyStageStore<T>[] stores;
    /** Per relation that the head's closure looks up without a stage (a trusted key): its rows by key value, else null. */
    private final MemoryKeyStageStore<T>[] headRows;

    private final int[][] headKeys;
    private final int[] head;
    private final boolean project;
    /** Rows on their way to a stage during one insert: stage indexes and rows, in order. */
    private final ArrayDeque<Object> pending = new ArrayDeque<>();

    private final KeyStageLogic.Output<T> out = new KeyStageLogic.Output<>() {
        @Override
        public void toStage(int stage, StageRow<T> row) {
            pending.add(stage);
            pending.add(row);
        }

        @Override
        public void toIngest(String relation, Tuple tuple, T payload, String origin) {
            closed.insert(relation, tuple, payload);
        }

        @Override
        public void dropped(StageRow<T> row) {
            dropped++;
        }
    };

    private long inserts;
    private long dropped;

    /** @param closed the engine of {@code plan.closed()} */
    @SuppressWarnings("unchecked") // an array of a generic type
    KeyedEngine(KeyedPlan plan, Semiring<T> semiring, IvmEngine<T> closed) {
        plan.checkSemiring(semiring);
        this.plan = plan;
        this.semiring = semiring;
        this.closed = closed;
        this.logic = new KeyStageLogic<>(plan, semiring);
        this.router = new AtomRouter(plan.query());
        this.stores = new MemoryKeyStageStore[logic.stages()];
        for (int s = 0; s < stores.length; s++) {
            stores[s] = new MemoryKeyStageStore<>();
        }
        int relations = plan.query().relations().size();
        this.headRows = new MemoryKeyStageStore[relations];
        this.headKeys = new int[relations][];
        for (int r : logic.headRelations()) {
            if (logic.stageOf(r) < 0) {
                headRows[r] = new MemoryKeyStageStore<>();
                headKeys[r] = logic.keyColumns(plan, r);
            }
        }
        this.head = new int[plan.query().head().size()];
        for (int i = 0; i < head.length; i++) {
            head[i] = i;
        }
        this.project = !plan.addedHead().isEmpty();
    }

    /**
     * {@inheritDoc}
     *
     * @throws KeyViolationException if the row breaks a key the plan relies on (nothing changed)
     */
    @Override
    public void insert(String relation, Tuple tuple, T payload) {
        change(relation, tuple, payload, false);
    }

    /**
     * Under deletes, a change that {@link ChangelogEngine} checked against the relation's rows: an
     * insert, or ({@code retraction}) a delete or an update's old row that takes {@code payload} away.
     *
     * @throws KeyViolationException if the row breaks a key the plan relies on (nothing changed)
     */
    void change(String relation, Tuple tuple, T payload, boolean retraction) {
        int r = router.checkedRelation(relation, tuple.arity());
        if (semiring.isZero(payload)) {
            inserts++;
            return;
        }
        pending.clear();
        if (retraction) {
            logic.retract(r, tuple, payload, null, out);
        } else {
            logic.insert(r, tuple, payload, null, out);
        }
        if (!drain()) {
            return;
        }
        if (headRows[r] != null) {
            keepHeadRow(headRows[r], tuple.project(headKeys[r]), tuple, payload, retraction);
        }
        inserts++;
    }

    /**
     * Runs the rows on their way through the stages; the first is the only one that can break a key.
     *
     * @return false if the row broke a key at a stage that does not report it ({@link
     *     KeyStageLogic#reports}): then nothing changed
     */
    private boolean drain() {
        // The first row is the only one that can break a key (its own relation's), before it changes anything.
        boolean first = true;
        while (!pending.isEmpty()) {
            int stage = (Integer) pending.poll();
            @SuppressWarnings("unchecked")
            StageRow<T> row = (StageRow<T>) pending.poll();
            if (row.isKeyRow()) {
                KeyViolation v = logic.keyRow(stage, stores[stage], row, out);
                if (v != null) {
                    if (!first) {
                        throw new IllegalStateException("a key row after the first row of an insert: " + v);
                    }
                    pending.clear();
                    if (!logic.reports(stage, v)) {
                        return false;
                    }
                    throw new KeyViolationException(v);
                }
            } else {
                logic.probe(stage, stores[stage], row, out);
            }
            first = false;
        }
        return true;
    }

    /**
     * {@inheritDoc}
     *
     * @throws KeyViolationException if the dropped row breaks a key the plan checks (nothing changed)
     */
    @Override
    public void filtered(String relation, Tuple tuple, boolean retraction) {
        int r = router.checkedRelation(relation, tuple.arity());
        pending.clear();
        if (retraction) {
            logic.droppedRetraction(r, tuple, semiring.one(), null, out);
        } else {
            logic.dropped(r, tuple, semiring.one(), null, out);
        }
        drain();
    }

    /** The row a trusted key's value has for looking results up: the first one, with its payload while it lasts. */
    private void keepHeadRow(MemoryKeyStageStore<T> rows, Tuple key, Tuple tuple, T payload, boolean retraction) {
        KeyRow<T> stored = rows.keyRow(key);
        if (stored == null) {
            if (!retraction) {
                rows.putKeyRow(key, KeyRow.kept(tuple, payload));
            }
            return;
        }
        if (!stored.values().equals(tuple) || !(semiring instanceof Ring<T> ring)) {
            return;
        }
        T sum = ring.plus(stored.payload(), retraction ? ring.negate(payload) : payload);
        if (ring.isZero(sum)) {
            rows.removeKeyRow(key);
        } else {
            rows.putKeyRow(key, KeyRow.kept(tuple, sum));
        }
    }

    @Override
    public Iterator<ResultTuple<T>> enumerate() {
        return project ? cursor().iterator() : closed.enumerate();
    }

    @Override
    public ResultCursor<T> cursor() {
        ResultCursor<T> c = closed.cursor();
        if (!project) {
            return c;
        }
        return new ResultCursor<>() {
            @Override
            public boolean next() {
                return c.next();
            }

            @Override
            public Tuple tuple() {
                return c.tuple().project(head);
            }

            @Override
            public T payload() {
                return c.payload();
            }
        };
    }

    @Override
    public T lookup(Tuple headTuple) {
        HeadArity.check(plan.query(), headTuple);
        if (!project) {
            return closed.lookup(headTuple);
        }
        Tuple full = logic.closedHead(headTuple, r -> headRows[r] != null ? headRows[r] : stores[logic.stageOf(r)]);
        return full == null ? semiring.zero() : closed.lookup(full);
    }

    @Override
    public long insertCount() {
        return inserts;
    }

    /** The closed query's engine's entries, the stored key rows (and marks) and the waiting rows. */
    @Override
    public long stateEntries() {
        long total = closed.stateEntries();
        for (MemoryKeyStageStore<T> s : stores) {
            total += s.keyRows() + s.waitingRows();
        }
        for (MemoryKeyStageStore<T> s : headRows) {
            total += s == null ? 0 : s.keyRows();
        }
        return total;
    }

    /** Rows dropped in the key stages so far: their key row was dropped by its selection, or does not fit them. */
    public long droppedRows() {
        return dropped;
    }

    /** Rows waiting in the key stages for their key rows. */
    public long waitingRows() {
        long total = 0;
        for (MemoryKeyStageStore<T> s : stores) {
            total += s.waitingRows();
        }
        return total;
    }

    @Override
    public long borderCrossings() {
        return closed.borderCrossings();
    }

    @Override
    public void changes(Consumer<ResultChange<T>> to) {
        if (!project) {
            closed.changes(to);
            return;
        }
        closed.changes(c -> to.accept(new ResultChange<>(c.tuple().project(head), c.payload(), c.previous())));
    }
}
