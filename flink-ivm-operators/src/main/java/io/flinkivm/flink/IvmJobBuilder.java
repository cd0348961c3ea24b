package io.flinkivm.flink;

import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.PlanKind;
import io.flinkivm.core.plan.Route;
import io.flinkivm.core.plan.ViewNode;
import io.flinkivm.core.plan.ViewTree;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.flink.runtime.BorderSinkOperator;
import io.flinkivm.flink.runtime.Delta;
import io.flinkivm.flink.runtime.DeltaJoinOperator;
import io.flinkivm.flink.runtime.IngestOperator;
import io.flinkivm.flink.runtime.RootUpdate;
import io.flinkivm.flink.runtime.RootViewOperator;
import io.flinkivm.flink.runtime.ViewNodeOperator;
import io.flinkivm.flink.types.DeadLetterTypeInfo;
import io.flinkivm.flink.types.DeltaTypeInfo;
import io.flinkivm.flink.types.PayloadTypes;
import io.flinkivm.flink.types.ResultRecordTypeInfo;
import io.flinkivm.flink.types.RootUpdateTypeInfo;
import io.flinkivm.flink.types.TupleTypeInfo;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.util.OutputTag;

/**
 * Maps a {@link MaintenancePlan} onto operators (DESIGN.md, "Mapping onto Flink"): ingest at
 * parallelism 1, one keyed function per stateful view, one keyed root view per tree, and the border
 * sink (which, for the cyclic plan, also holds the bags); or ingest and the single fallback operator. Names and uids say which view an operator holds;
 * uids are derived from the query and semiring, so they are stable across runs of the same query.
 */
final class IvmJobBuilder<T> {
    private final MaintenancePlan plan;
    private final Semiring<T> semiring;
    private final IvmOptions options;
    private final TypeInformation<T> payloadType;
    private final TypeInformation<Delta<T>> deltaType;
    private final OutputTag<DeadLetter> deadLetterTag;
    private final String uidPrefix;

    IvmJobBuilder(MaintenancePlan plan, Semiring<T> semiring, IvmOptions options) {
        if (!plan.semiring().equals(semiring.name())) {
            throw new IllegalArgumentException("plan was made for semiring " + plan.semiring() + ", not " + semiring.name());
        }
        this.plan = plan;
        this.semiring = semiring;
        this.options = options;
        this.payloadType = PayloadTypes.of(semiring);
        this.deltaType = new DeltaTypeInfo<>(payloadType);
        this.deadLetterTag = new OutputTag<>("ivm-dead-letters", DeadLetterTypeInfo.INSTANCE);
        this.uidPrefix = "ivm-" + fingerprint(this.plan) + "-";
    }

    private static String fingerprint(MaintenancePlan plan) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            byte[] digest = sha.digest((plan.query() + "|" + plan.semiring() + "|" + plan.kind())
                    .getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 6);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is not available", e);
        }
    }

    IvmJob<T> build(DataStream<InputRecord<T>> inserts) {
        Map<Integer, OutputTag<Delta<T>>> tags = new HashMap<>();
        if (plan.kind() != PlanKind.FALLBACK_DELTA_JOIN) {
            for (ViewNode n : plan.statefulNodes()) {
                tags.put(n.id(), new OutputTag<>("ivm-node-" + n.id(), deltaType));
            }
            for (ViewTree t : plan.viewTrees()) {
                tags.put(Delta.rootTarget(t.index()), new OutputTag<>("ivm-root-" + t.index(), deltaType));
            }
        } else {
            tags.put(Delta.FALLBACK_TARGET, new OutputTag<>("ivm-fallback", deltaType));
        }
        SingleOutputStreamOperator<DeadLetter> ingest = inserts
                .transform("ingest " + plan.query().name() + " (sequence, validate, route)", DeadLetterTypeInfo.INSTANCE,
                        new IngestOperator<>(plan, semiring, options.snapshotEvery(), options.progressEvery(), tags))
                .uid(uidPrefix + "ingest")
                .setParallelism(1)
                .setMaxParallelism(1);
        List<DataStream<DeadLetter>> deadLetters = new ArrayList<>();
        deadLetters.add(ingest);
        long period = options.snapshotPeriod() == null ? 0 : options.snapshotPeriod().toMillis();
        TypeInformation<ResultRecord<T>> resultType = new ResultRecordTypeInfo<>(payloadType);
        SingleOutputStreamOperator<ResultRecord<T>> results;
        if (plan.kind() != PlanKind.FALLBACK_DELTA_JOIN) {
            results = buildViewTrees(ingest, tags, deadLetters, resultType, period);
        } else {
            results = ingest.getSideOutput(tags.get(Delta.FALLBACK_TARGET))
                    .keyBy(new ConstantKey<>(), TupleTypeInfo.INSTANCE)
                    .transform("delta joins over " + semiring.name() + " (fallback)", resultType,
                            new DeltaJoinOperator<>(plan, semiring, payloadType, deltaType, deadLetterTag, period,
                                    options.outputMode() == OutputMode.CHANGELOG))
                    .uid(uidPrefix + "fallback")
                    .setParallelism(1);
            deadLetters.add(results.getSideOutput(deadLetterTag));
        }
        return new IvmJob<>(plan, results, union(deadLetters));
    }

    private SingleOutputStreamOperator<ResultRecord<T>> buildViewTrees(SingleOutputStreamOperator<DeadLetter> ingest,
            Map<Integer, OutputTag<Delta<T>>> tags, List<DataStream<DeadLetter>> deadLetters,
            TypeInformation<ResultRecord<T>> resultType, long period) {
        Map<Integer, List<DataStream<Delta<T>>>> inputs = new HashMap<>();
        tags.forEach((target, tag) -> inputs.computeIfAbsent(target, k -> new ArrayList<>()).add(ingest.getSideOutput(tag)));
        // Node ids are assigned in pre-order, so children have larger ids: build bottom-up.
        List<ViewNode> stateful = new ArrayList<>(plan.statefulNodes());
        stateful.sort((a, b) -> Integer.compare(b.id(), a.id()));
        for (ViewNode n : stateful) {
            List<DataStream<Delta<T>>> in = inputs.get(n.id());
            SingleOutputStreamOperator<Delta<T>> out = union(in)
                    .keyBy(new DeltaKey<>(), TupleTypeInfo.INSTANCE)
                    .transform(n.displayName(), deltaType, new ViewNodeOperator<>(plan, semiring, n.id(), payloadType,
                            deltaType, deadLetterTag, singleChannel(in)))
                    .uid(uidPrefix + n.displayName());
            deadLetters.add(out.getSideOutput(deadLetterTag));
            Route r = plan.nodeRoute(n.id());
            int target = r.toRoot() ? Delta.rootTarget(r.tree()) : r.node();
            inputs.get(target).add(out);
        }
        TypeInformation<RootUpdate<T>> rootType = new RootUpdateTypeInfo<>(payloadType);
        List<DataStream<RootUpdate<T>>> roots = new ArrayList<>();
        for (ViewTree t : plan.viewTrees()) {
            List<DataStream<Delta<T>>> in = inputs.get(Delta.rootTarget(t.index()));
            SingleOutputStreamOperator<RootUpdate<T>> root = union(in)
                    .keyBy(new DeltaKey<>(), TupleTypeInfo.INSTANCE)
                    .transform(t.displayName(), rootType, new RootViewOperator<>(semiring, t.index(), t.displayName(),
                            payloadType, deltaType, deadLetterTag, singleChannel(in)))
                    .uid(uidPrefix + t.displayName());
            deadLetters.add(root.getSideOutput(deadLetterTag));
            roots.add(root);
        }
        // Acyclic and cyclic plans alike: keyed by a free variable of every root schema if there is one
        // (each root update then belongs to one partition, and the join restricted to one value of the
        // variable is the join of the restricted root views, bags included), else one constant key at
        // parallelism 1. A cyclic query has no such variable when its cycle runs through the free
        // variables (the triangle, 4-cycle, 4-clique): its bags then live in one sink subtask.
        int[] sinkKey = sharedVariablePositions();
        KeySelector<RootUpdate<T>, Tuple> selector = sinkKey == null ? new ConstantKey<>() : new SharedVariableKey<>(sinkKey);
        String sinkName = plan.kind() == PlanKind.CYCLIC_P_HIERARCHICAL
                ? "bags (worst-case-optimal delta joins) + Boolean join of " + plan.bags().size()
                        + " bags + payload recovery (sink)"
                : "Boolean join + payload recovery (sink)";
        return union(roots)
                .keyBy(selector, TupleTypeInfo.INSTANCE)
                .transform(sinkName, resultType,
                        new BorderSinkOperator<>(plan, semiring, payloadType, rootType, sinkKey != null,
                                singleChannel(roots), period, options.outputMode() == OutputMode.CHANGELOG))
                .uid(uidPrefix + "sink")
                .setParallelism(sinkKey == null ? 1 : options.sinkParallelism());
    }

    /**
     * For the first free variable in every root schema, its position in each tree's root schema;
     * null if no variable is shared by all (then the sink runs under one constant key).
     */
    private int[] sharedVariablePositions() {
        for (String v : plan.query().head()) {
            int[] positions = new int[plan.viewTrees().size()];
            boolean everywhere = true;
            for (ViewTree t : plan.viewTrees()) {
                positions[t.index()] = t.schema().indexOf(v);
                everywhere &= positions[t.index()] >= 0;
            }
            if (everywhere) {
                return positions;
            }
        }
        return null;
    }

    /**
     * Whether the streams together reach each downstream subtask on one channel only (one stream
     * from one subtask); then records arrive in insert order and need not be held back.
     */
    private static boolean singleChannel(List<? extends DataStream<?>> streams) {
        return streams.size() == 1 && streams.get(0).getParallelism() == 1;
    }

    private static <X> DataStream<X> union(List<DataStream<X>> streams) {
        DataStream<X> first = streams.get(0);
        if (streams.size() == 1) {
            return first;
        }
        @SuppressWarnings("unchecked")
        DataStream<X>[] rest = streams.subList(1, streams.size()).toArray(new DataStream[0]);
        return first.union(rest);
    }

    /** Keys a delta by its view key. */
    static final class DeltaKey<T> implements KeySelector<Delta<T>, Tuple> {
        private static final long serialVersionUID = 1L;

        @Override
        public Tuple getKey(Delta<T> delta) {
            return delta.key();
        }
    }

    /** One key for everything: the operator holds all state under {@link Tuple#EMPTY}. */
    static final class ConstantKey<X> implements KeySelector<X, Tuple> {
        private static final long serialVersionUID = 1L;

        @Override
        public Tuple getKey(X value) {
            return Tuple.EMPTY;
        }
    }

    /** Keys a root update by the value of the free variable that every root schema has. */
    static final class SharedVariableKey<T> implements KeySelector<RootUpdate<T>, Tuple> {
        private static final long serialVersionUID = 1L;
        private final int[][] positions;

        SharedVariableKey(int[] positions) {
            this.positions = new int[positions.length][];
            for (int i = 0; i < positions.length; i++) {
                this.positions[i] = new int[] {positions[i]};
            }
        }

        @Override
        public Tuple getKey(RootUpdate<T> update) {
            return update.tuple().project(positions[update.tree()]);
        }
    }
}
