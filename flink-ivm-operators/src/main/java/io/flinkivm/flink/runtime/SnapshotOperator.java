package io.flinkivm.flink.runtime;

import io.flinkivm.core.engine.ResultTuple;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.flink.ResultRecord;
import io.flinkivm.flink.state.StateNames;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.stream.Stream;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
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
    private transient long lastTrigger;
    private transient long processingSnapshots;
    private transient ListState<Long> counters;
    private transient Counter snapshots;
    private transient volatile long lastRows;
    private transient volatile long lastMillis;

    SnapshotOperator(TypeInformation<IN> inputType, boolean inOrderInput, long periodMillis) {
        super(inputType, inOrderInput);
        this.periodMillis = periodMillis;
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
            Iterator<ResultTuple<T>> it = results();
            while (it.hasNext()) {
                ResultTuple<T> r = it.next();
                emit(ResultRecord.row(id, insertCount, r.tuple(), r.payload(), prefixExact), timestamp);
                rows++;
            }
        }
        emit(ResultRecord.end(id, insertCount, rows, prefixExact), timestamp);
        snapshots.inc();
        lastRows = rows;
        lastMillis = (System.nanoTime() - start) / 1_000_000;
    }

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
