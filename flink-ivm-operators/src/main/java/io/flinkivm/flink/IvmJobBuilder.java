package io.flinkivm.flink;

import io.flinkivm.core.engine.keys.KeyStageLogic;
import io.flinkivm.core.engine.keys.StageRow;
import io.flinkivm.core.plan.KeyedPlan;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.UnsupportedPlanException;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Ring;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.flink.common.Epochs;
import io.flinkivm.flink.common.StateTtl;
import io.flinkivm.flink.ingest.IngestOperator;
import io.flinkivm.flink.ingest.LiveRowsOperator;
import io.flinkivm.flink.keys.KeyRouteOperator;
import io.flinkivm.flink.keys.KeyStageOperator;
import io.flinkivm.flink.types.DeadLetter;
import io.flinkivm.flink.types.DeadLetterTypeInfo;
import io.flinkivm.flink.types.EpochEnd;
import io.flinkivm.flink.types.EpochEndTypeInfo;
import io.flinkivm.flink.types.InputRecord;
import io.flinkivm.flink.types.InputRecordTypeInfo;
import io.flinkivm.flink.types.PayloadTypes;
import io.flinkivm.flink.types.ResultRecord;
import io.flinkivm.flink.types.ResultRecordTypeInfo;
import io.flinkivm.flink.types.StageRowTypeInfo;
import io.flinkivm.flink.types.TupleTypeInfo;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.functions.Partitioner;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.util.OutputTag;

/**
 * Builds a plan's Flink job as its {@link FlinkJobLayout} says (docs/design.md, "Mapping onto Flink"):
 * the ingest at the job's parallelism, one keyed operator per view tree with state below its root
 * (the root updates of the others go from the ingest straight to the sink), and the parallel border
 * sink (which, for the cyclic plan, also holds the bags); or the ingest and the partitioned fallback.
 * Epoch ends go from the ingest to the sink on a broadcast edge; {@link SinkWiring} builds what follows
 * the ingest. A {@link KeyedPlan} puts its key route and key stages in front of the ingest, which runs
 * its closed plan from there on, and a projection of the results to the query's head after the sink
 * when the head gained variables. Uids are derived from the query and semiring, so they are stable
 * across runs of the same query.
 */
final class IvmJobBuilder<T> {
    /** The plan as given; for a {@link KeyedPlan} the operators from the ingest on run {@link #plan}, its closed plan. */
    private final MaintenancePlan original;

    private final KeyedPlan keyed;
    private final MaintenancePlan plan;
    private final Semiring<T> semiring;
    private final IvmOptions options;
    private final TypeInformation<T> payloadType;
    private final TypeInformation<ResultRecord<T>> resultType;
    private final OutputTag<DeadLetter> deadLetterTag;
    private final OutputTag<EpochEnd> epochTag;
    private final String uidPrefix;

    IvmJobBuilder(MaintenancePlan plan, Semiring<T> semiring, IvmOptions options) {
        if (!plan.semiring().equals(semiring.name())) {
            throw new IllegalArgumentException(
                    "plan was made for semiring " + plan.semiring() + ", not " + semiring.name());
        }
        if (!plan.inputs().isInsertOnly() && !(semiring instanceof Ring<T>)) {
            throw new UnsupportedPlanException("the plan has deletes and updates in "
                    + String.join(", ", plan.inputs().changelog()) + ", which need a ring, and "
                    + semiring.name() + " is not one: use the ring Semirings.ringFor gives");
        }
        this.original = options.keyChecks() ? plan.withKeyChecks(true) : plan;
        if (original instanceof KeyedPlan && !options.windows().isEmpty()) {
            throw new UnsupportedPlanException("windowed relations with a plan under keys (key stages in front of the"
                    + " ingest) are not supported: the key stages would hide the inputs' event time from the"
                    + " ingest; plan the windowed query without relation keys");
        }
        options.windows().check(plan.query());
        this.keyed = original instanceof KeyedPlan k ? k : null;
        this.plan = keyed != null ? keyed.closed() : original;
        this.semiring = semiring;
        this.options = options;
        this.payloadType = PayloadTypes.of(semiring);
        this.resultType = new ResultRecordTypeInfo<>(payloadType);
        this.deadLetterTag = new OutputTag<>("ivm-dead-letters", DeadLetterTypeInfo.INSTANCE);
        this.epochTag = new OutputTag<>("ivm-epochs", EpochEndTypeInfo.INSTANCE);
        this.uidPrefix = options.uidPrefix() != null ? options.uidPrefix() : "ivm-" + fingerprint(original) + "-";
    }

    private static String fingerprint(MaintenancePlan plan) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            byte[] digest = sha.digest(
                    (plan.query() + "|" + plan.semiring() + "|" + plan.kind()).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 6);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is not available", e);
        }
    }

    /**
     * Builds the job on its input streams, as on their union. Without key stages the ingest runs on each
     * input in the input's own chain, so that a row crosses only the keyed exchanges its plan needs (a
     * union's output cannot be chained to what reads it); each input's ingest subtasks are epoch
     * producers of their own. Where the plan has key stages, the stateless key route runs in each
     * input's chain and one ingest takes the union of the route and the stages. Under deletes the row
     * check, keyed by row, takes the union of the inputs.
     */
    IvmJob<T> build(List<DataStream<InputRecord<T>>> inputs) {
        DataStream<InputRecord<T>> inserts = inputs.get(0);
        int parallelism = options.parallelism() > 0
                ? options.parallelism()
                : Math.max(1, inserts.getExecutionEnvironment().getParallelism());
        FlinkJobLayout layout = FlinkJobLayout.of(original, parallelism, options.rates(), options.rowCheck())
                .withStateTtl(options)
                .withWindows(options.windows());
        int sinkParallelism = layout.sink().parallelism();
        int configuredMax = inserts.getExecutionEnvironment().getConfig().getMaxParallelism();
        int sinkMaxParallelism = configuredMax > 0
                ? configuredMax
                : KeyGroupRangeAssignment.computeDefaultMaxParallelism(sinkParallelism);
        SinkWiring<T> sinks = new SinkWiring<>(
                plan,
                semiring,
                options,
                layout,
                payloadType,
                resultType,
                deadLetterTag,
                uidPrefix,
                parallelism,
                sinkMaxParallelism);
        List<String> fallbackChecks = layout.fallbackChecks();
        boolean stages = keyed != null && !keyed.stages().isEmpty();
        // Under deletes a key stage checks the changes of its relation's rows, keyed by their key value,
        // so that a key row's update (its old row, then its new one) keeps its order; other rows by row.
        boolean byKey = stages && !original.inputs().isInsertOnly();
        KeySelector<InputRecord<T>, Tuple> rowKey = byKey ? new StageRowKey<>(keyed) : new RowKey<>();
        // The changes of one row keep their order: a stream at another parallelism is spread by row
        // where no row check (keyed by row) comes first for every relation.
        List<DataStream<InputRecord<T>>> atParallelism = new ArrayList<>();
        for (DataStream<InputRecord<T>> in : inputs) {
            atParallelism.add(
                    in.getParallelism() == parallelism
                            ? in
                            : fallbackChecks.isEmpty() && !byKey
                                    ? in.rebalance()
                                    : in.partitionCustom(new RowPartitioner(), rowKey));
        }
        List<DataStream<DeadLetter>> deadLetters = new ArrayList<>();
        List<DataStream<InputRecord<T>>> toIngest;
        if (byKey && layout.rowCheck() != null) {
            // The row check comes first, on the query's own rows; those of a relation with a key stage pass
            // it as they are (their stage checks them).
            Set<String> passed = new HashSet<>();
            for (String r : keyed.query().relations()) {
                if (keyed.stage(r) >= 0) {
                    passed.add(r);
                }
            }
            DataStream<InputRecord<T>> checked =
                    rowCheck(union(atParallelism), original, passed, rowKey, layout, parallelism, deadLetters);
            toIngest = List.of(union(keyStages(List.of(checked), layout, parallelism, deadLetters)));
        } else if (stages) {
            // One ingest after the union of route and stages: an ingest chained to each of them would be
            // an epoch producer that may never see a row (a route whose rows all go to stages, a stage
            // that only feeds later ones), and on unbounded inputs would hold snapshots by count for good.
            toIngest = List.of(union(keyStages(atParallelism, layout, parallelism, deadLetters)));
        } else if (layout.rowCheck() != null) {
            toIngest =
                    List.of(rowCheck(union(atParallelism), plan, Set.of(), rowKey, layout, parallelism, deadLetters));
        } else {
            toIngest = atParallelism;
        }
        if ((long) toIngest.size() * parallelism > Epochs.MAX_INGEST_SUBTASKS) {
            throw new IllegalArgumentException(toIngest.size() + " ingest operators at parallelism " + parallelism
                    + " make more ingest subtasks than the " + Epochs.MAX_INGEST_SUBTASKS
                    + " an insert id can name: union the inputs or lower the parallelism");
        }
        long period =
                options.snapshotPeriod() == null ? 0 : options.snapshotPeriod().toMillis();
        // One ingest per stream that reaches it, chained to it (a union's output cannot be chained): its
        // subtasks are epoch producers of their own, numbered after the previous ingests' ones.
        List<SingleOutputStreamOperator<DeadLetter>> ingests = new ArrayList<>();
        for (int i = 0; i < toIngest.size(); i++) {
            SingleOutputStreamOperator<DeadLetter> ingest = toIngest.get(i)
                    .transform(
                            layout.ingest().name(),
                            DeadLetterTypeInfo.INSTANCE,
                            new IngestOperator<>(
                                    plan,
                                    semiring,
                                    sinks.routes(),
                                    epochTag,
                                    options.snapshotEvery(),
                                    options.progressEvery(),
                                    period,
                                    options.miniBatch(),
                                    i * parallelism,
                                    options.windows()))
                    .uid(uidPrefix + "ingest" + (i == 0 ? "" : "-" + i))
                    .setParallelism(parallelism);
            deadLetters.add(ingest);
            ingests.add(ingest);
        }
        DataStream<EpochEnd> epochEnds = sideOutputs(ingests, epochTag);
        SingleOutputStreamOperator<ResultRecord<T>> results =
                sinks.results(ingests, epochEnds.broadcast(), deadLetters);
        deadLetters.add(results.getSideOutput(deadLetterTag));
        DataStream<ResultRecord<T>> out = results;
        if (layout.projection() != null) {
            out = results.map(new HeadProjection<T>(keyed.query().head().size()))
                    .returns(resultType)
                    .name(layout.projection().name())
                    .uid(uidPrefix + "results")
                    .setParallelism(sinkParallelism);
        }
        return new IvmJob<>(original, layout, out, union(deadLetters), epochEnds, semiring, options);
    }

    /** The keyed operators' state TTL. */
    private StateTtl stateTtl() {
        return new StateTtl(options.stateTtlMillis());
    }

    /**
     * The row check of {@code checked}'s changelog relations on {@code input}, keyed by {@code rowKey};
     * the changes of the relations {@code passed} go on unchecked.
     */
    private DataStream<InputRecord<T>> rowCheck(
            DataStream<InputRecord<T>> input,
            MaintenancePlan checked,
            Set<String> passed,
            KeySelector<InputRecord<T>, Tuple> rowKey,
            FlinkJobLayout layout,
            int parallelism,
            List<DataStream<DeadLetter>> deadLetters) {
        SingleOutputStreamOperator<InputRecord<T>> rows = input.keyBy(rowKey, TupleTypeInfo.INSTANCE)
                .transform(
                        layout.rowCheck().name(),
                        new InputRecordTypeInfo<>(payloadType),
                        new LiveRowsOperator<>(
                                checked,
                                (Ring<T>) semiring,
                                payloadType,
                                deadLetterTag,
                                options.managedState(),
                                stateTtl(),
                                passed))
                .uid(uidPrefix + "live-rows")
                .setParallelism(parallelism);
        deadLetters.add(rows.getSideOutput(deadLetterTag));
        return rows;
    }

    /**
     * The key route and the key stages of the {@link KeyedPlan} in front of the ingest: the route sends
     * each row to its relation's stage (or on), each stage, keyed by the key value, to a later stage or
     * the ingest. Returns the streams that go to the ingest, one per route and stage; the dead letters of
     * route and stages go to {@code deadLetters}.
     */
    private List<DataStream<InputRecord<T>>> keyStages(
            List<DataStream<InputRecord<T>>> inputs,
            FlinkJobLayout layout,
            int parallelism,
            List<DataStream<DeadLetter>> deadLetters) {
        KeyStageLogic<T> logic = new KeyStageLogic<>(keyed, semiring);
        TypeInformation<StageRow<T>> rowType = new StageRowTypeInfo<>(payloadType);
        TypeInformation<InputRecord<T>> inputType = new InputRecordTypeInfo<>(payloadType);
        List<OutputTag<StageRow<T>>> tags = new ArrayList<>();
        List<List<DataStream<StageRow<T>>>> into = new ArrayList<>();
        for (int s = 0; s < logic.stages(); s++) {
            tags.add(new OutputTag<>("ivm-key-stage-" + s, rowType));
            into.add(new ArrayList<>());
        }
        List<DataStream<InputRecord<T>>> toIngest = new ArrayList<>();
        for (int i = 0; i < inputs.size(); i++) {
            SingleOutputStreamOperator<InputRecord<T>> route = inputs.get(i)
                    .transform(
                            layout.keyOperators().get(0).name(),
                            inputType,
                            new KeyRouteOperator<>(keyed, semiring, edges(tags, logic.targets(-1)), deadLetterTag))
                    .uid(uidPrefix + "key-route" + (i == 0 ? "" : "-" + i))
                    .setParallelism(parallelism);
            deadLetters.add(route.getSideOutput(deadLetterTag));
            for (int t : logic.targets(-1)) {
                into.get(t).add(route.getSideOutput(tags.get(t)));
            }
            toIngest.add(route);
        }
        for (int s = 0; s < logic.stages(); s++) {
            SingleOutputStreamOperator<InputRecord<T>> stage = union(into.get(s))
                    .keyBy(new StageKey<>(logic, s), TupleTypeInfo.INSTANCE)
                    .transform(
                            layout.keyOperators().get(s + 1).name(),
                            inputType,
                            new KeyStageOperator<>(
                                    keyed,
                                    semiring,
                                    s,
                                    payloadType,
                                    edges(tags, logic.targets(s)),
                                    deadLetterTag,
                                    stateTtl()))
                    .uid(uidPrefix + "key-stage-" + keyed.stages().get(s).relation()
                            + (keyed.stages().get(s).copy() == 0
                                    ? ""
                                    : "-copy-" + keyed.stages().get(s).copy()))
                    .setParallelism(parallelism);
            deadLetters.add(stage.getSideOutput(deadLetterTag));
            for (int t : logic.targets(s)) {
                into.get(t).add(stage.getSideOutput(tags.get(t)));
            }
            toIngest.add(stage);
        }
        return toIngest;
    }

    /** The tags of the stages in {@code targets}, null for the others. */
    private static <X> List<OutputTag<X>> edges(List<OutputTag<X>> tags, List<Integer> targets) {
        List<OutputTag<X>> out = new ArrayList<>();
        for (int s = 0; s < tags.size(); s++) {
            out.add(targets.contains(s) ? tags.get(s) : null);
        }
        return out;
    }

    /** Keys an input record by its row (relation and values), for the row check of a changelog. */
    static final class RowKey<T> implements KeySelector<InputRecord<T>, Tuple> {
        private static final long serialVersionUID = 1L;

        @Override
        public Tuple getKey(InputRecord<T> r) {
            return LiveRowsOperator.key(r);
        }
    }

    /**
     * Keys an input record of a plan with key stages and deletes: a row of a relation with a key stage by
     * its relation and key value (its changes keep their order, a key row's update too), another by row.
     */
    static final class StageRowKey<T> implements KeySelector<InputRecord<T>, Tuple> {
        private static final long serialVersionUID = 1L;
        private final Map<String, int[]> keys = new HashMap<>();

        StageRowKey(KeyedPlan plan) {
            for (String r : plan.query().relations()) {
                if (plan.stage(r) >= 0) {
                    keys.put(r, plan.query().keyOf(r).positionArray());
                }
            }
        }

        @Override
        public Tuple getKey(InputRecord<T> r) {
            int[] key = r.isSnapshotRequest() ? null : keys.get(r.relation());
            if (key == null || r.tuple() == null || r.tuple().arity() <= maxOf(key)) {
                return LiveRowsOperator.key(r);
            }
            Object[] values = new Object[key.length + 1];
            values[0] = r.relation();
            for (int i = 0; i < key.length; i++) {
                values[i + 1] = r.tuple().get(key[i]);
            }
            return Tuple.wrap(values);
        }

        private static int maxOf(int[] columns) {
            int max = -1;
            for (int c : columns) {
                max = Math.max(max, c);
            }
            return max;
        }
    }

    /** Spreads records by their row (relation and values) over the channels, keeping each row's order. */
    static final class RowPartitioner implements Partitioner<Tuple> {
        private static final long serialVersionUID = 1L;

        @Override
        public int partition(Tuple row, int channels) {
            return Math.floorMod(row.hashCode(), channels);
        }
    }

    /** Keys a row for key stage {@code stage}: its key value there. */
    static final class StageKey<T> implements KeySelector<StageRow<T>, Tuple> {
        private static final long serialVersionUID = 1L;
        private final KeyStageLogic<T> logic;
        private final int stage;

        StageKey(KeyStageLogic<T> logic, int stage) {
            this.logic = logic;
            this.stage = stage;
        }

        @Override
        public Tuple getKey(StageRow<T> row) {
            return logic.key(stage, row);
        }
    }

    /**
     * A result row of the closed query as one of the query: the closed head is the query's head
     * followed by the head's closure, which the keys determine, so dropping it maps rows one to one.
     */
    static final class HeadProjection<T> implements MapFunction<ResultRecord<T>, ResultRecord<T>> {
        private static final long serialVersionUID = 1L;
        private final int[] head;

        HeadProjection(int arity) {
            head = new int[arity];
            for (int i = 0; i < arity; i++) {
                head[i] = i;
            }
        }

        @Override
        public ResultRecord<T> map(ResultRecord<T> r) {
            if (r.isEnd()) {
                return r;
            }
            return ResultRecord.of(
                    r.snapshotId(),
                    r.insertCount(),
                    false,
                    r.tuple().project(head),
                    r.payload(),
                    r.rows(),
                    r.isPrefixExact(),
                    null,
                    r.kind());
        }
    }

    /** The union of the ingests' side outputs {@code tag}. */
    static <X> DataStream<X> sideOutputs(List<SingleOutputStreamOperator<DeadLetter>> ingests, OutputTag<X> tag) {
        List<DataStream<X>> sides = new ArrayList<>();
        for (SingleOutputStreamOperator<DeadLetter> ingest : ingests) {
            sides.add(ingest.getSideOutput(tag));
        }
        return union(sides);
    }

    /** The union of {@code streams}, or the one stream. */
    static <X> DataStream<X> union(List<DataStream<X>> streams) {
        DataStream<X> first = streams.get(0);
        if (streams.size() == 1) {
            return first;
        }
        @SuppressWarnings("unchecked")
        DataStream<X>[] rest = streams.subList(1, streams.size()).toArray(new DataStream[0]);
        return first.union(rest);
    }
}
