package io.flinkivm.flink;

import static io.flinkivm.flink.IvmJobBuilder.sideOutputs;
import static io.flinkivm.flink.IvmJobBuilder.union;

import io.flinkivm.core.plan.FallbackPlan;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.UnsupportedPlanException;
import io.flinkivm.core.plan.ViewTree;
import io.flinkivm.core.plan.ViewTreePlan;
import io.flinkivm.core.query.Atom;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.flink.common.StateTtl;
import io.flinkivm.flink.common.WindowClose;
import io.flinkivm.flink.fallback.DeltaJoinOperator;
import io.flinkivm.flink.ingest.IngestRoutes;
import io.flinkivm.flink.sink.RootSinkSpec;
import io.flinkivm.flink.types.DeadLetter;
import io.flinkivm.flink.types.Delta;
import io.flinkivm.flink.types.DeltaTypeInfo;
import io.flinkivm.flink.types.EpochEnd;
import io.flinkivm.flink.types.ResultRecord;
import io.flinkivm.flink.types.RootUpdate;
import io.flinkivm.flink.types.RootUpdateTypeInfo;
import io.flinkivm.flink.types.TupleTypeInfo;
import io.flinkivm.flink.viewtree.ViewTreeOperator;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.KeyedStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.util.OutputTag;

/**
 * The part of the job after the ingest, for {@link IvmJobBuilder}: the side outputs that the ingest
 * routes its deltas to ({@link #routes}), then the view-tree operators and the sink above them, or the
 * fallback's delta join, keyed as the {@link FlinkJobLayout} says. The sink and each tree keyed by a
 * window variable drop a key's state once its windows have closed ({@link WindowClose}), at the event
 * times of the broadcast epoch ends; such a tree is a two-input operator.
 */
final class SinkWiring<T> {
    /** The plan the operators from the ingest on run (a keyed plan's closed plan). */
    private final MaintenancePlan plan;

    private final Semiring<T> semiring;
    private final IvmOptions options;
    private final FlinkJobLayout layout;
    private final TypeInformation<T> payloadType;
    private final TypeInformation<Delta<T>> deltaType;
    private final TypeInformation<RootUpdate<T>> rootType;
    private final TypeInformation<ResultRecord<T>> resultType;
    private final OutputTag<DeadLetter> deadLetterTag;
    private final String uidPrefix;
    private final int parallelism;
    private final int sinkParallelism;
    private final int sinkMaxParallelism;
    private final FallbackPlan fallbackPlan;
    private final ViewTreePlan treePlan;
    /** Per view tree, the ingest's side output to its operator; null for a tree without one. */
    private final List<OutputTag<Delta<T>>> treeTags = new ArrayList<>();

    private final OutputTag<RootUpdate<T>> directTag;
    private final OutputTag<Delta<T>> fallbackTag;
    private final IngestRoutes<T> routes;

    SinkWiring(
            MaintenancePlan plan,
            Semiring<T> semiring,
            IvmOptions options,
            FlinkJobLayout layout,
            TypeInformation<T> payloadType,
            TypeInformation<ResultRecord<T>> resultType,
            OutputTag<DeadLetter> deadLetterTag,
            String uidPrefix,
            int parallelism,
            int sinkMaxParallelism) {
        this.plan = plan;
        this.semiring = semiring;
        this.options = options;
        this.layout = layout;
        this.payloadType = payloadType;
        this.deltaType = new DeltaTypeInfo<>(payloadType);
        this.rootType = new RootUpdateTypeInfo<>(payloadType);
        this.resultType = resultType;
        this.deadLetterTag = deadLetterTag;
        this.uidPrefix = uidPrefix;
        this.parallelism = parallelism;
        this.sinkParallelism = layout.sink().parallelism();
        this.sinkMaxParallelism = sinkMaxParallelism;
        this.fallbackPlan = plan instanceof FallbackPlan f ? f : null;
        this.treePlan = plan instanceof ViewTreePlan v ? v : null;
        this.directTag = layout.directTrees().isEmpty() ? null : new OutputTag<>("ivm-straight-to-sink", rootType);
        if (fallbackPlan == null) {
            for (ViewTree t : treePlan.viewTrees()) {
                treeTags.add(
                        layout.treeOperator(t.index()) == null
                                ? null
                                : new OutputTag<>("ivm-tree-" + t.index(), deltaType));
            }
        }
        this.fallbackTag = fallbackPlan != null ? new OutputTag<>("ivm-fallback", deltaType) : null;
        this.routes = fallbackPlan != null
                ? IngestRoutes.fallback(
                        fallbackTag, layout.shares(), sinkParallelism, sinkMaxParallelism, layout.fallbackChecks())
                : IngestRoutes.trees(treeTags, directTag, layout.shares(), sinkParallelism, sinkMaxParallelism);
    }

    /** Where the ingest sends its deltas: to the tree operators, straight to the sink, or to the fallback. */
    IngestRoutes<T> routes() {
        return routes;
    }

    /**
     * The operators after {@code ingests}: the fallback, or the view trees and the sink; the sink and
     * the windowed trees also take the broadcast {@code epochs}. Returns the sink; the trees' dead
     * letters go to {@code deadLetters}.
     */
    SingleOutputStreamOperator<ResultRecord<T>> results(
            List<SingleOutputStreamOperator<DeadLetter>> ingests,
            DataStream<EpochEnd> epochs,
            List<DataStream<DeadLetter>> deadLetters) {
        boolean changelog = options.outputMode() == OutputMode.CHANGELOG;
        // A sink keyed by a window variable's value (first) drops a key's state once its windows have closed.
        WindowClose sinkWindows = layout.windowVariable() == null
                ? null
                : WindowClose.of(plan.query(), options.windows(), layout.windowVariable(), 0);
        boolean finalOnly = options.windowEmit() == WindowEmit.FINAL;
        if (finalOnly && !changelog) {
            throw new IllegalArgumentException(
                    "withWindowEmit(FINAL) shapes a changelog: set withOutputMode(OutputMode.CHANGELOG) too");
        }
        if (finalOnly && sinkWindows == null) {
            throw new UnsupportedPlanException("withWindowEmit(FINAL) needs a result collected by window, and no"
                    + " window variable is in every part of this result (explain's Windows: section says which views"
                    + " are collected by window)");
        }
        if (fallbackPlan != null) {
            return fallback(ingests, epochs, changelog, sinkWindows, finalOnly);
        }
        List<DataStream<RootUpdate<T>>> roots = new ArrayList<>();
        if (directTag != null) {
            roots.add(sideOutputs(ingests, directTag));
        }
        for (ViewTree t : treePlan.viewTrees()) {
            if (treeTags.get(t.index()) == null) {
                continue;
            }
            SingleOutputStreamOperator<RootUpdate<T>> tree = tree(t, ingests, epochs);
            deadLetters.add(tree.getSideOutput(deadLetterTag));
            roots.add(tree);
        }
        KeySelector<RootUpdate<T>, Tuple> key = layout.hashVariable() != null
                ? new RootValueKey<>(rootPositionsOf(treePlan, layout.sinkKey()))
                : new CellKey<>();
        return union(roots)
                .keyBy(key, TupleTypeInfo.INSTANCE)
                .connect(epochs)
                .transform(
                        layout.sink().name(),
                        resultType,
                        RootSinks.of(
                                treePlan,
                                new RootSinkSpec<>(
                                        semiring,
                                        payloadType,
                                        rootType,
                                        deadLetterTag,
                                        changelog,
                                        options.updateBefore(),
                                        options.managedState(),
                                        stateTtl(),
                                        sinkWindows,
                                        finalOnly)))
                .uid(uidPrefix + "sink")
                .setParallelism(sinkParallelism);
    }

    /** The fallback's delta join, keyed by the sink key or by the cell the ingest chose. */
    private SingleOutputStreamOperator<ResultRecord<T>> fallback(
            List<SingleOutputStreamOperator<DeadLetter>> ingests,
            DataStream<EpochEnd> epochs,
            boolean changelog,
            WindowClose sinkWindows,
            boolean finalOnly) {
        KeySelector<Delta<T>, Tuple> key = layout.hashVariable() != null
                ? new AtomValueKey<>(positionsOf(layout.sinkKey()))
                : new PartitionKey<>();
        return sideOutputs(ingests, fallbackTag)
                .keyBy(key, TupleTypeInfo.INSTANCE)
                .connect(epochs)
                .transform(
                        layout.sink().name(),
                        resultType,
                        new DeltaJoinOperator<>(
                                fallbackPlan,
                                semiring,
                                payloadType,
                                deltaType,
                                deadLetterTag,
                                changelog,
                                options.updateBefore(),
                                layout.hashVariable() == null,
                                options.managedState(),
                                stateTtl(),
                                sinkWindows,
                                finalOnly))
                .uid(uidPrefix + "fallback")
                .setParallelism(sinkParallelism);
    }

    /**
     * The operator of view tree {@code t}; a tree keyed by a window also takes the broadcast {@code epochs},
     * whose event times close its windows.
     */
    private SingleOutputStreamOperator<RootUpdate<T>> tree(
            ViewTree t, List<SingleOutputStreamOperator<DeadLetter>> ingests, DataStream<EpochEnd> epochs) {
        WindowClose treeWindows = treeWindows(t);
        ViewTreeOperator<T> treeOperator = new ViewTreeOperator<>(
                treePlan,
                semiring,
                t.index(),
                payloadType,
                deltaType,
                rootType,
                deadLetterTag,
                layout.shares(),
                sinkParallelism,
                sinkMaxParallelism,
                options.miniBatch(),
                options.managedState(),
                stateTtl(),
                treeWindows);
        KeyedStream<Delta<T>, Tuple> deltas = sideOutputs(ingests, treeTags.get(t.index()))
                .keyBy(new TreeKey<>(ViewTreeOperator.keyLength(t)), TupleTypeInfo.INSTANCE);
        String treeName = layout.treeOperator(t.index()).name();
        return (treeWindows == null
                        ? deltas.transform(treeName, rootType, treeOperator)
                        : deltas.connect(epochs).transform(treeName, rootType, treeOperator))
                .uid(uidPrefix + "tree-" + t.index())
                .setParallelism(parallelism);
    }

    /**
     * How the keys of tree {@code t}'s operator (its root tuples) close: by the first variable of its
     * root schema that is a window variable of every atom that holds it; null when there is none.
     */
    private WindowClose treeWindows(ViewTree t) {
        List<String> schema = t.schema();
        for (int i = 0; i < schema.size(); i++) {
            WindowClose c = WindowClose.of(plan.query(), options.windows(), schema.get(i), i);
            if (c != null) {
                return c;
            }
        }
        return null;
    }

    /** The keyed operators' state TTL. */
    private StateTtl stateTtl() {
        return new StateTtl(options.stateTtlMillis());
    }

    /** Per atom, the positions of {@code variables} among the atom's variables. */
    private int[][] positionsOf(List<String> variables) {
        int[][] out = new int[plan.query().body().size()][];
        for (Atom a : plan.query().body()) {
            out[a.index()] = variables.stream().mapToInt(a.variables()::indexOf).toArray();
        }
        return out;
    }

    /** Per view tree, the positions of {@code variables} in its root schema. */
    private static int[][] rootPositionsOf(ViewTreePlan plan, List<String> variables) {
        int[][] out = new int[plan.viewTrees().size()][];
        for (ViewTree t : plan.viewTrees()) {
            out[t.index()] = variables.stream().mapToInt(t.schema()::indexOf).toArray();
        }
        return out;
    }

    /**
     * Keys a delta for its view tree's operator: the leading values of its key (the root schema, or
     * the top bound variable), or the partition the ingest chose for a delta without state on the way.
     */
    static final class TreeKey<T> implements KeySelector<Delta<T>, Tuple> {
        private static final long serialVersionUID = 1L;
        private final int[] prefix;

        TreeKey(int length) {
            prefix = new int[length];
            for (int i = 0; i < length; i++) {
                prefix[i] = i;
            }
        }

        @Override
        public Tuple getKey(Delta<T> delta) {
            if (delta.partition() != null) {
                return delta.partition();
            }
            Tuple key = delta.key();
            return key.arity() == prefix.length ? key : key.project(prefix);
        }
    }

    /** Keys a delta by the cell the ingest sent it to. */
    static final class PartitionKey<T> implements KeySelector<Delta<T>, Tuple> {
        private static final long serialVersionUID = 1L;

        @Override
        public Tuple getKey(Delta<T> delta) {
            return delta.partition();
        }
    }

    /** Keys a fallback delta by the values of the variables that every atom has (the sink key). */
    static final class AtomValueKey<T> implements KeySelector<Delta<T>, Tuple> {
        private static final long serialVersionUID = 1L;
        private final int[][] positions;

        /** @param positions per atom, the positions of the key's variables among its variables */
        AtomValueKey(int[][] positions) {
            this.positions = positions;
        }

        @Override
        public Tuple getKey(Delta<T> delta) {
            // A row no atom matches carries the key it is kept under.
            return delta.partition() != null ? delta.partition() : delta.key().project(positions[delta.atom()]);
        }
    }

    /** Keys a root update by the cell the tree operator sent it to. */
    static final class CellKey<T> implements KeySelector<RootUpdate<T>, Tuple> {
        private static final long serialVersionUID = 1L;

        @Override
        public Tuple getKey(RootUpdate<T> update) {
            return update.cell();
        }
    }

    /** Keys a root update by the values of the free variables that every root schema has (the sink key). */
    static final class RootValueKey<T> implements KeySelector<RootUpdate<T>, Tuple> {
        private static final long serialVersionUID = 1L;
        private final int[][] positions;

        /** @param positions per tree, the positions of the key's variables in its root schema */
        RootValueKey(int[][] positions) {
            this.positions = positions;
        }

        @Override
        public Tuple getKey(RootUpdate<T> update) {
            return update.tuple().project(positions[update.tree()]);
        }
    }
}
