package io.flinkivm.flink.runtime;

import io.flinkivm.core.engine.ResultTuple;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.flink.ResultRecord;
import io.flinkivm.flink.state.StateNames;
import io.flinkivm.flink.types.TupleTypeInfo;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.state.VoidNamespace;

/**
 * Base of the keyed operators that hold a query result and emit snapshots of it: on every trigger
 * watermark after n inserts ({@link EventTime}) a prefix-exact snapshot with id n, and optionally
 * every {@code periodMillis} of processing time a recent one (not prefix-exact; its ids count such
 * snapshots separately and its insert count is that of the last trigger). Recomputing a snapshot
 * after a restore gives the same rows for the same id; the counters survive restores (union
 * operator state, so each subtask continues from the largest after rescaling).
 */
abstract class SnapshotOperator<IN, T> extends TimeOrderedOperator<IN, ResultRecord<T>> {
    private static final long serialVersionUID = 1L;

    private final long periodMillis;
    private final boolean changelog;
    private final TypeInformation<T> payloadType;
    private transient long lastTrigger;
    private transient long processingSnapshots;
    private transient ListState<Long> counters;
    private transient MapState<Tuple, T> emitted;
    private transient Counter snapshots;
    private transient volatile long lastRows;
    private transient volatile long lastMillis;

    /**
     * @param changelog emit only the rows that changed since the previous trigger ({@code OutputMode.CHANGELOG})
     */
    SnapshotOperator(TypeInformation<IN> inputType, boolean inOrderInput, long periodMillis, boolean changelog,
            TypeInformation<T> payloadType) {
        super(inputType, inOrderInput);
        this.periodMillis = periodMillis;
        this.changelog = changelog;
        this.payloadType = payloadType;
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        counters = context.getOperatorStateStore()
                .getUnionListState(new ListStateDescriptor<>(StateNames.SNAPSHOT_COUNTERS, Types.LONG));
        lastTrigger = -1;
        processingSnapshots = 0;
        List<Long> restored = new ArrayList<>();
        for (Long v : counters.get()) {
            restored.add(v);
        }
        for (int i = 0; i + 1 < restored.size(); i += 2) {
            lastTrigger = Math.max(lastTrigger, restored.get(i));
            processingSnapshots = Math.max(processingSnapshots, restored.get(i + 1));
        }
    }

    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        super.snapshotState(context);
        counters.update(List.of(lastTrigger, processingSnapshots));
    }

    @Override
    public void open() throws Exception {
        super.open();
        if (changelog) {
            emitted = getRuntimeContext().getMapState(
                    new MapStateDescriptor<>(StateNames.EMITTED, TupleTypeInfo.INSTANCE, payloadType));
        }
        snapshots = getMetricGroup().counter(Metrics.SNAPSHOTS);
        getMetricGroup().gauge(Metrics.LAST_SNAPSHOT_ROWS, () -> lastRows);
        getMetricGroup().gauge(Metrics.LAST_ENUMERATION_MS, () -> lastMillis);
        if (periodMillis > 0) {
            scheduleProcessingSnapshot();
        }
    }

    private void scheduleProcessingSnapshot() {
        long next = getProcessingTimeService().getCurrentProcessingTime() + periodMillis;
        getProcessingTimeService().registerTimer(next, time -> {
            processingSnapshots++;
            emitSnapshot(processingSnapshots, Math.max(0, lastTrigger), false,
                    Math.max(0, currentWatermark));
            scheduleProcessingSnapshot();
        });
    }

    @Override
    protected void onWatermark(long watermark) throws Exception {
        if (EventTime.isTrigger(watermark)) {
            long n = EventTime.inserts(watermark);
            if (n > lastTrigger) {
                lastTrigger = n;
                emitSnapshot(n, n, true, watermark);
            }
        }
    }

    private void emitSnapshot(long id, long insertCount, boolean prefixExact, long timestamp) throws Exception {
        long start = System.nanoTime();
        long rows = 0;
        for (Object key : keys()) {
            setCurrentKey(key);
            rows += changelog ? emitChanges(id, insertCount, prefixExact, timestamp)
                    : emitAll(id, insertCount, prefixExact, timestamp);
        }
        emit(ResultRecord.end(id, insertCount, rows, prefixExact), timestamp);
        snapshots.inc();
        lastRows = rows;
        lastMillis = (System.nanoTime() - start) / 1_000_000;
    }

    private long emitAll(long id, long insertCount, boolean prefixExact, long timestamp) {
        long rows = 0;
        Iterator<ResultTuple<T>> it = results();
        while (it.hasNext()) {
            ResultTuple<T> r = it.next();
            emit(ResultRecord.row(id, insertCount, r.tuple(), r.payload(), prefixExact), timestamp);
            rows++;
        }
        return rows;
    }

    /** Emits the rows of the current key whose payload differs from the last emitted one. */
    private long emitChanges(long id, long insertCount, boolean prefixExact, long timestamp) throws Exception {
        long rows = 0;
        Set<Tuple> seen = new HashSet<>();
        Iterator<ResultTuple<T>> it = results();
        while (it.hasNext()) {
            ResultTuple<T> r = it.next();
            seen.add(r.tuple());
            T before = emitted.get(r.tuple());
            if (!r.payload().equals(before)) {
                emitted.put(r.tuple(), r.payload());
                emit(ResultRecord.row(id, insertCount, r.tuple(), r.payload(), prefixExact), timestamp);
                rows++;
            }
        }
        List<Tuple> gone = new ArrayList<>();
        for (Map.Entry<Tuple, T> e : emitted.entries()) {
            if (!seen.contains(e.getKey())) {
                gone.add(e.getKey());
            }
        }
        for (Tuple t : gone) {
            emitted.remove(t);
            emit(ResultRecord.row(id, insertCount, t, zero(), prefixExact), timestamp);
            rows++;
        }
        return rows;
    }

    /** The semiring's zero (a deletion in changelog mode). */
    protected abstract T zero();

    /** The keys of this subtask that may hold results. */
    private List<Object> keys() {
        String state = keyedStateName();
        if (state == null) {
            return List.of(Tuple.EMPTY);
        }
        List<Object> out = new ArrayList<>();
        try (Stream<Object> keys = getKeyedStateBackend().getKeys(state, VoidNamespace.INSTANCE)) {
            keys.forEach(out::add);
        }
        return out;
    }

    /**
     * The name of a keyed state that every key with results has, or null when the operator runs
     * under the single constant key {@link Tuple#EMPTY}.
     */
    protected abstract String keyedStateName();

    /** The results held under the current key. */
    protected abstract Iterator<ResultTuple<T>> results();
}
