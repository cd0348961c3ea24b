package io.flinkivm.flink.ingest;

import io.flinkivm.core.engine.AbsentRowException;
import io.flinkivm.core.engine.LiveRows;
import io.flinkivm.core.engine.maps.KeyValueState;
import io.flinkivm.core.engine.maps.OpenHashMap;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.query.AtomRouter;
import io.flinkivm.core.query.ChangeKind;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Ring;
import io.flinkivm.flink.common.KeyGroupStates;
import io.flinkivm.flink.common.MemoryMapCodec;
import io.flinkivm.flink.common.Metrics;
import io.flinkivm.flink.common.StateAccessException;
import io.flinkivm.flink.common.StateLayout;
import io.flinkivm.flink.common.StateNames;
import io.flinkivm.flink.common.StateTtl;
import io.flinkivm.flink.types.DeadLetter;
import io.flinkivm.flink.types.InputRecord;
import java.io.IOException;
import java.util.List;
import java.util.Set;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.util.OutputTag;

/**
 * The row check in front of the ingest of a plan whose inputs have deletes, keyed by the row (its
 * relation and values, {@link #key}), so that one row's changes keep their order at any parallelism, as
 * a CDC source keyed by row sends them. For a changelog relation it keeps the row's payload in keyed
 * state and checks each delete (and old row of an update) with core's {@link LiveRows}: one that takes
 * more than the row holds, or names an absent row, is a dead letter with the reason, counted, and
 * changes nothing; one that passes goes on to the ingest as the insert of the inverse payload. In front
 * of key stages, the changes of the relations with a stage go on unchecked, as they are: their stages
 * check them. A row
 * whose payload returns to zero leaves the state. Rows of insert-only relations pass without state;
 * a delete of one is a dead letter. Snapshot requests pass. The rows live in Flink's managed keyed
 * state, or on the heap backend in the operator's own hash maps, one per relation and key group
 * ({@link StateLayout}).
 */
@Internal
public final class LiveRowsOperator<T> extends AbstractStreamOperator<InputRecord<T>>
        implements OneInputStreamOperator<InputRecord<T>, InputRecord<T>> {
    private static final long serialVersionUID = 1L;

    private final MaintenancePlan plan;
    private final Ring<T> ring;
    private final TypeInformation<T> payloadType;
    private final OutputTag<DeadLetter> deadLetters;
    private final boolean managedState;
    private final StateTtl stateTtl;
    /** Relations whose changes go on unchecked, as they are: their key stages check them. */
    private final Set<String> passed;

    private transient LiveRows<T> logic;
    private transient AtomRouter router;
    private transient boolean[] changelog;
    private transient ValueState<T> row;
    /** The current key's row in managed state; null in the in-memory layout. */
    private transient KeyValueState<Tuple, T> current;
    /** The in-memory layout's rows per relation and key group; null in the managed layout. */
    private transient KeyGroupStates<OpenHashMap<Tuple, T>[]> parts;

    private transient Counter deadLetterCounter;
    private transient Counter absentRows;
    private transient Counter retractions;

    /**
     * @param managedState whether to keep the rows in Flink's managed keyed state on the heap backend too
     * @param stateTtl expire rows not written for this long ({@link StateTtl#NONE}: never)
     * @param passed relations whose changes go on unchecked and as they are (the relations with key
     *     stages, which check their deletes themselves, keyed by the key value)
     */
    public LiveRowsOperator(
            MaintenancePlan plan,
            Ring<T> ring,
            TypeInformation<T> payloadType,
            OutputTag<DeadLetter> deadLetters,
            boolean managedState,
            StateTtl stateTtl,
            Set<String> passed) {
        this.plan = plan;
        this.ring = ring;
        this.payloadType = payloadType;
        this.deadLetters = deadLetters;
        this.managedState = managedState;
        this.stateTtl = stateTtl;
        this.passed = Set.copyOf(passed);
    }

    /** The key of a record: its relation followed by its values; the empty tuple for a snapshot request. */
    public static Tuple key(InputRecord<?> r) {
        if (r.isSnapshotRequest() || r.relation() == null || r.tuple() == null) {
            return Tuple.EMPTY;
        }
        Object[] values = new Object[r.tuple().arity() + 1];
        values[0] = r.relation();
        for (int i = 0; i < r.tuple().arity(); i++) {
            values[i + 1] = r.tuple().get(i);
        }
        return Tuple.wrap(values);
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        // Registered on either layout, so that a savepoint's serializers are checked on the heap backend too.
        row = stateTtl.states(context.getKeyedStateStore())
                .getState(new ValueStateDescriptor<>(StateNames.LIVE_ROW, payloadType));
        String operator = "the row check";
        if (StateLayout.choose(operator, managedState || stateTtl.isSet(), getKeyedStateBackend(), context)
                == StateLayout.IN_MEMORY) {
            StateLayout.checkNoManagedState(operator, getKeyedStateBackend(), List.of(StateNames.LIVE_ROW));
            int relations = plan.query().relations().size();
            TypeSerializer<T> payloads =
                    payloadType.createSerializer(getExecutionConfig().getSerializerConfig());
            parts = KeyGroupStates.restore(
                    getKeyedStateBackend(),
                    context,
                    () -> rowMaps(relations),
                    new RowsCodec<>(payloads, relations),
                    false);
        }
    }

    @SuppressWarnings("unchecked")
    private static <T> OpenHashMap<Tuple, T>[] rowMaps(int relations) {
        OpenHashMap<Tuple, T>[] maps = new OpenHashMap[relations];
        for (int i = 0; i < relations; i++) {
            maps[i] = new OpenHashMap<>();
        }
        return maps;
    }

    @Override
    protected boolean isUsingCustomRawKeyedState() {
        return true;
    }

    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        super.snapshotState(context);
        if (parts != null) {
            parts.snapshot(context);
        }
    }

    @Override
    public void open() throws Exception {
        super.open();
        logic = new LiveRows<>(ring);
        router = new AtomRouter(plan.query());
        changelog = new boolean[plan.query().relations().size()];
        for (int i = 0; i < changelog.length; i++) {
            changelog[i] = plan.inputs().hasDeletes(plan.query().relations().get(i));
        }
        current = parts == null ? new CurrentRow() : null;
        deadLetterCounter = getMetricGroup().counter(Metrics.DEAD_LETTERS);
        absentRows = getMetricGroup().counter(Metrics.ABSENT_ROWS);
        retractions = getMetricGroup().counter(Metrics.RETRACTIONS);
    }

    @Override
    public void processElement(StreamRecord<InputRecord<T>> element) {
        InputRecord<T> r = element.getValue();
        if (r.isSnapshotRequest() || r.isDropped()) {
            // A dropped row is no row of its relation: it goes on to its key stage, if any, as it is.
            output.collect(element);
            return;
        }
        String problem = IngestOperator.problem(r, router, ring, false);
        if (problem != null) {
            reject(r, problem);
            return;
        }
        int relation = router.relation(r.relation());
        if (passed.contains(r.relation())) {
            output.collect(element);
            return;
        }
        if (!changelog[relation]) {
            if (r.isRetraction()) {
                reject(r, IngestOperator.insertOnly(r, plan.inputs().changelog()));
            } else {
                output.collect(element);
            }
            return;
        }
        KeyValueState<Tuple, T> rows = parts == null ? current : parts.current()[relation];
        T updated;
        try {
            updated = logic.after(rows, r.relation(), r.tuple(), r.payload(), r.isRetraction());
        } catch (AbsentRowException e) {
            absentRows.inc();
            reject(r, e.getMessage());
            return;
        } catch (ArithmeticException e) {
            reject(r, "change of " + r.relation() + r.tuple() + " not applied: " + e.getMessage());
            return;
        }
        logic.write(rows, r.tuple(), updated);
        if (r.isRetraction()) {
            retractions.inc();
            output.collect(element.replace(r.with(ChangeKind.INSERT, logic.inverse(r.payload()))));
        } else {
            output.collect(
                    r.kind() == ChangeKind.INSERT ? element : element.replace(r.with(ChangeKind.INSERT, r.payload())));
        }
    }

    private void reject(InputRecord<T> r, String reason) {
        deadLetterCounter.inc();
        output.collect(deadLetters, new StreamRecord<>(new DeadLetter(r.origin(), reason, String.valueOf(r))));
    }

    /** The current key's row as core's {@link LiveRows} reads it: one value, whatever tuple is asked for. */
    private final class CurrentRow implements KeyValueState<Tuple, T> {
        @Override
        public T get(Tuple key) {
            try {
                return row.value();
            } catch (IOException e) {
                throw new StateAccessException("cannot read state " + StateNames.LIVE_ROW, e);
            }
        }

        @Override
        public void put(Tuple key, T value) {
            try {
                row.update(value);
            } catch (IOException e) {
                throw new StateAccessException("cannot write state " + StateNames.LIVE_ROW, e);
            }
        }

        @Override
        public void remove(Tuple key) {
            row.clear();
        }
    }

    /** Writes a key group's rows: for each relation, its rows with their payloads. */
    private record RowsCodec<T>(TypeSerializer<T> payloads, int relations)
            implements KeyGroupStates.Codec<OpenHashMap<Tuple, T>[]> {
        @Override
        public void write(OpenHashMap<Tuple, T>[] part, DataOutputView out) throws IOException {
            for (OpenHashMap<Tuple, T> rows : part) {
                MemoryMapCodec.write(rows, payloads, out);
            }
        }

        @Override
        public OpenHashMap<Tuple, T>[] read(DataInputView in) throws IOException {
            OpenHashMap<Tuple, T>[] part = rowMaps(relations);
            for (OpenHashMap<Tuple, T> rows : part) {
                MemoryMapCodec.read(rows, payloads, in);
            }
            return part;
        }
    }
}
