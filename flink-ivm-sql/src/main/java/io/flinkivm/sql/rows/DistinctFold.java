package io.flinkivm.sql.rows;

import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Ring;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.flink.types.PayloadTypes;
import io.flinkivm.flink.types.ResultRecord;
import io.flinkivm.flink.types.TupleTypeInfo;
import io.flinkivm.sql.translate.DistinctGroups;
import io.flinkivm.sql.translate.SqlTranslation;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.streaming.api.TimerService;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.types.Row;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.Collector;

/**
 * The rows of a SQL view with COUNT(DISTINCT ...): the view's changelog, keyed by group
 * ({@link #groupKey}), folded into one row per group ({@link DistinctGroups#apply}) in keyed state: the
 * group's payload in the plan's ring, its distinct counts, and, where a pair (group, value) spans several
 * result tuples, a count per pair. Each result change costs O(1) state accesses (O(log n) for a MIN or
 * MAX multiset). The job must send each update's old payload ({@code -U}): it is held until its
 * {@code +U} comes, so that the group's row changes once per update.
 *
 * <p>Under a state TTL ({@code IvmOptions.withStateTtl}) a group's state goes whole, as the sink's keys do:
 * a processing-time timer between 1 and 1.5 TTLs after the group's last change drops all of it (its
 * entries depend on each other). A change that then arrives for the group starts it again: what it
 * takes away from the forgotten group is not taken.
 *
 * @param <T> the plan's payload type
 */
@Internal
public final class DistinctFold<T> extends KeyedProcessFunction<Tuple, ResultRecord<T>, Row> {
    private static final long serialVersionUID = 1L;

    static final String GROUP_PAYLOAD = "distinct-group-payload";
    static final String GROUP_COUNTS = "distinct-group-counts";
    static final String PAIR_COUNTS = "distinct-pair-counts";
    static final String PENDING_UPDATES = "distinct-pending-updates";
    /** Under a state TTL: when the group's state is dropped unless a change comes first. */
    static final String IDLE_UNTIL = "distinct-idle-until";

    private final SqlTranslation translation;
    private final Semiring<T> semiring;
    private final boolean updateBefore;
    private final long stateTtlMillis;

    private transient DistinctGroups distinct;
    private transient Ring<Object> ring;
    private transient ValueState<Object> payloads;
    private transient ValueState<long[]> counts;
    private transient MapState<Tuple, Long> pairs;
    private transient MapState<Tuple, T> pending;
    private transient DistinctGroups.PairCounts<Exception> pairCounts;
    private transient ValueState<Long> idleUntil;

    /**
     * @param translation a translation with COUNT(DISTINCT ...)
     * @param semiring the plan's semiring (the payloads of the records)
     * @param updateBefore whether a changed group's row is sent as {@code -U} of its old values, then
     *     {@code +U} (else {@code +U} only, as an upsert table takes it)
     * @param stateTtlMillis drop a group's state once no change reached it for this long (0: never)
     */
    public DistinctFold(SqlTranslation translation, Semiring<T> semiring, boolean updateBefore, long stateTtlMillis) {
        if (translation.distinctGroups() == null) {
            throw new IllegalArgumentException(translation.sql() + " has no COUNT(DISTINCT ...)");
        }
        this.translation = translation;
        this.semiring = semiring;
        this.updateBefore = updateBefore;
        this.stateTtlMillis = stateTtlMillis;
    }

    /** The key of a record: its result tuple's group; end markers (no tuple) have the empty key and are dropped. */
    public static <T> KeySelector<ResultRecord<T>, Tuple> groupKey(SqlTranslation translation) {
        DistinctGroups distinct = translation.distinctGroups();
        return r -> r.isEnd() ? Tuple.EMPTY : distinct.group(r.tuple());
    }

    @Override
    @SuppressWarnings("unchecked") // the ring's payloads are stored with the ring's own type information
    public void open(OpenContext context) {
        distinct = translation.distinctGroups();
        ring = (Ring<Object>) DistinctGroups.ring(semiring);
        payloads = getRuntimeContext()
                .getState(new ValueStateDescriptor<>(GROUP_PAYLOAD, PayloadTypes.of((Semiring<Object>) ring)));
        counts = getRuntimeContext()
                .getState(new ValueStateDescriptor<>(
                        GROUP_COUNTS, PrimitiveArrayTypeInfo.LONG_PRIMITIVE_ARRAY_TYPE_INFO));
        pairs = getRuntimeContext()
                .getMapState(new MapStateDescriptor<>(PAIR_COUNTS, TupleTypeInfo.INSTANCE, Types.LONG));
        pending = getRuntimeContext()
                .getMapState(
                        new MapStateDescriptor<>(PENDING_UPDATES, TupleTypeInfo.INSTANCE, PayloadTypes.of(semiring)));
        if (stateTtlMillis > 0) {
            idleUntil = getRuntimeContext().getState(new ValueStateDescriptor<>(IDLE_UNTIL, Types.LONG));
        }
        pairCounts = (group, pair, delta) -> {
            Long was = pairs.get(pair);
            long n = (was == null ? 0 : was) + delta;
            if (n == 0) {
                pairs.remove(pair);
            } else {
                pairs.put(pair, n);
            }
            return n;
        };
    }

    @Override
    public void processElement(ResultRecord<T> r, Context ctx, Collector<Row> out) throws Exception {
        if (r.isEnd()) {
            return;
        }
        if (idleUntil != null) {
            touch(ctx.timerService());
        }
        Tuple tuple = r.tuple();
        T before;
        T after;
        switch (r.kind()) {
            case UPDATE_BEFORE -> {
                pending.put(tuple, r.payload());
                return;
            }
            case UPDATE_AFTER -> {
                before = pending.get(tuple);
                if (before == null) {
                    throw new IllegalStateException("+U of " + tuple + " without its -U: the job must send"
                            + " each update's old payload for COUNT(DISTINCT ...)");
                }
                pending.remove(tuple);
                after = r.payload();
            }
            case DELETE -> {
                before = r.payload();
                after = null;
            }
            default -> {
                before = null;
                after = r.payload();
            }
        }
        Object payload = payloads.value();
        if (payload == null && idleUntil != null) {
            // The group may have expired: nothing of it is left to take away.
            before = null;
            if (after == null) {
                return;
            }
        }
        DistinctGroups.Group old = payload == null ? null : new DistinctGroups.Group(payload, counts.value());
        DistinctGroups.Group now = distinct.apply(ring, old, tuple, before, after, pairCounts);
        if (now == null) {
            payloads.clear();
            counts.clear();
        } else {
            payloads.update(now.payload());
            counts.update(now.counts());
        }
        Tuple group = ctx.getCurrentKey();
        if (old == null && now != null) {
            out.collect(row(RowKind.INSERT, group, now));
        } else if (old != null && now == null) {
            out.collect(row(RowKind.DELETE, group, old));
        } else if (old != null && !old.equals(now)) {
            if (updateBefore) {
                out.collect(row(RowKind.UPDATE_BEFORE, group, old));
            }
            out.collect(row(RowKind.UPDATE_AFTER, group, now));
        }
    }

    /** Keeps the current group at least a TTL from now (its timer moved at most once per half TTL). */
    private void touch(TimerService timers) throws Exception {
        long now = timers.currentProcessingTime();
        Long until = idleUntil.value();
        if (until == null || until < now + stateTtlMillis) {
            long next = now + stateTtlMillis + stateTtlMillis / 2;
            if (until != null) {
                timers.deleteProcessingTimeTimer(until);
            }
            timers.registerProcessingTimeTimer(next);
            idleUntil.update(next);
        }
    }

    /** The group went without a change for the TTL: all its state goes, and no row is emitted. */
    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<Row> out) throws Exception {
        Long until = idleUntil.value();
        if (until != null && until == timestamp) {
            payloads.clear();
            counts.clear();
            pairs.clear();
            pending.clear();
            idleUntil.clear();
        }
    }

    private Row row(RowKind kind, Tuple group, DistinctGroups.Group g) {
        return Row.ofKind(kind, translation.outputRow(group, g));
    }
}
