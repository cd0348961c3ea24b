package io.flinkivm.flink.ingest;

import io.flinkivm.core.engine.viewtree.CompiledPlan;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.ViewTree;
import io.flinkivm.core.plan.ViewTreePlan;
import io.flinkivm.core.query.Atom;
import io.flinkivm.core.query.AtomRouter;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Ring;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.core.window.WindowAssignment;
import io.flinkivm.core.window.Windows;
import io.flinkivm.flink.common.CellFanOut;
import io.flinkivm.flink.common.CellLayout;
import io.flinkivm.flink.common.Epochs;
import io.flinkivm.flink.common.Metrics;
import io.flinkivm.flink.common.RootDeltaBatch;
import io.flinkivm.flink.common.StateNames;
import io.flinkivm.flink.types.DeadLetter;
import io.flinkivm.flink.types.Delta;
import io.flinkivm.flink.types.EpochEnd;
import io.flinkivm.flink.types.IngestPosition;
import io.flinkivm.flink.types.IngestPositionSerializer;
import io.flinkivm.flink.types.InputRecord;
import io.flinkivm.flink.types.RootUpdate;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.util.OutputTag;

/**
 * The entry of a flink-ivm job, one subtask per input split: validates each record, applies each
 * atom's selection and sends one {@link Delta} per matching atom to the operator that holds the
 * atom's state (its view tree, or the fallback's cells), as its {@link IngestRoutes} say. An atom
 * of a tree without state below the root feeds the root view directly: its delta goes straight to
 * the sink, as a {@link RootUpdate} to add (to the cells that agree with it, when the sink has
 * cells), so such an insert crosses one shuffle. Rejected records go to the main output as
 * {@link DeadLetter}s. It also runs this subtask's epochs ({@link Epochs}): every delta carries the
 * current epoch; an epoch ends, asking for a snapshot, after {@code snapshotEvery} inserts of this
 * subtask, on a control record, on a processing-time tick every {@code periodMillis} and at the end of
 * the input, and without one after {@code progressEvery} inserts, with an {@link EpochEnd} (which
 * carries this subtask's event-time watermark) to every sink subtask and a watermark. Upstream watermarks are event time: the ingest keeps the largest
 * (a windowed relation's row goes into its windows still open at it, {@link Windows}) and passes on
 * only the final one.
 *
 * <p>A row of a windowed relation becomes one insert per open window it belongs to, its window's start
 * and end appended; a row whose windows all closed is a dead letter.
 *
 * <p>Its operator state is this subtask's epoch, counts and position (union state: restored at
 * another parallelism, each new subtask takes over the counts of a run of consecutive old subtasks,
 * the runs as Flink deals out source readers' splits, every subtask starts after the largest old
 * epoch, and the generation increases, which tells the sinks to start a new cut from the restored
 * totals). With windowed relations it also keeps each subtask's event-time watermark (union state;
 * rescaled, every subtask starts from the smallest).
 */
@Internal
public final class IngestOperator<T> extends AbstractStreamOperator<DeadLetter>
        implements OneInputStreamOperator<InputRecord<T>, DeadLetter>, BoundedOneInput {
    private static final long serialVersionUID = 3L;

    private final MaintenancePlan plan;
    private final Semiring<T> semiring;
    private final long snapshotEvery;
    private final long progressEvery;
    private final long periodMillis;
    private final IngestRoutes<T> routes;
    private final OutputTag<EpochEnd> epochTag;
    private final int miniBatch;
    /** The job's number of this operator's first subtask: 0, or past the ingest subtasks of the inputs before. */
    private final int first;

    private final Windows windows;

    /** The event-time watermark and the open windows of a windowed relation's row. */
    private transient IngestWindows windowing;

    /** The semiring as a ring, for a plan with deletes (else null). */
    private transient Ring<T> ring;

    private transient CompiledPlan compiled;
    private transient ConjunctiveQuery query;
    private transient AtomRouter router;
    private transient AtomRouter.Receiver<T> deliver;
    /** The id of the insert being routed. */
    private transient long insert;
    /** Per relation: whether the fallback checks its deletes (they are sent as checked deletes). */
    private transient boolean[] checkedByFallback;
    /** Whether the change being routed is a checked delete. */
    private transient boolean checkedDelete;
    /** The origin of the checked delete being routed, until its first delta (which reports) is sent. */
    private transient String reportAs;
    /** The row of the checked delete being routed. */
    private transient Tuple reportRow;
    /** Per relation: whether some atom over it has a selection, so that some of its rows match no atom. */
    private transient boolean[] selective;
    /** Deltas sent for the change being routed. */
    private transient int routed;

    private transient CellLayout layout;
    /** Fallback with cells: per atom, where its deltas go. */
    private transient CellFanOut[] atomCells;
    /** Trees straight to a sink with cells: per tree, where its root deltas go. */
    private transient CellFanOut[] treeCells;

    private transient int subtask;
    /** This subtask's number among all ingest subtasks of the job: {@link #first} + its index. */
    private transient int producer;

    private transient Tuple spreadKey;
    private transient ListState<IngestPosition> positionState;
    /** The ingest state as earlier versions wrote it (text), read at a restore only. */
    private transient ListState<String> legacyState;

    private transient int generation;
    private transient long epoch;
    private transient long inEpoch;
    private transient long sinceSnapshot;
    private transient long count;
    private transient long position;
    private transient boolean bridge;
    private transient boolean started;
    private transient boolean ended;
    private transient Counter insertsCounter;
    private transient Counter deadLetterCounter;
    private transient Counter epochsCounter;
    private transient Counter[] perRelation;
    /** The mini-batch of the trees without state below the root, or null (no such tree, or no batching). */
    private transient DirectBatches<T> batches;

    private transient Counter directOut;

    /**
     * An ingest, one of several of a job (one per input, each in its input's chain): its subtask i is
     * ingest subtask {@code first + i} of the job, the number its epoch ends and insert ids carry, so that
     * the sinks tell every ingest subtask of every input apart.
     *
     * @param routes where the deltas go: the view trees' operators and the sink, or the fallback
     * @param epochTag the side output of epoch ends, broadcast to the sinks
     * @param snapshotEvery end an epoch with a snapshot after this many inserts of the subtask (0: never)
     * @param progressEvery end an epoch without a snapshot after this many inserts of the subtask (0:
     *     never): the watermark then tells downstream operators how far the job is
     * @param periodMillis end an epoch with a snapshot on every tick of this processing-time period (0: never)
     * @param miniBatch how many root tuples of trees without state below the root the operator sums
     *     deltas for before it sends them to the sink (1: each delta at once); see {@link DirectBatches}
     * @param first the number of this operator's first subtask among the job's ingest subtasks
     * @param windows the windows of the query's relations ({@link Windows#NONE}: none)
     */
    public IngestOperator(
            MaintenancePlan plan,
            Semiring<T> semiring,
            IngestRoutes<T> routes,
            OutputTag<EpochEnd> epochTag,
            long snapshotEvery,
            long progressEvery,
            long periodMillis,
            int miniBatch,
            int first,
            Windows windows) {
        if (first < 0 || first >= Epochs.MAX_INGEST_SUBTASKS) {
            throw new IllegalArgumentException(
                    "first must be in [0, " + Epochs.MAX_INGEST_SUBTASKS + "), got " + first);
        }
        if (snapshotEvery < 0 || progressEvery < 0 || periodMillis < 0) {
            throw new IllegalArgumentException("snapshotEvery, progressEvery and periodMillis must be >= 0");
        }
        if (miniBatch < 1) {
            throw new IllegalArgumentException("miniBatch must be >= 1, got " + miniBatch);
        }
        ViewTreePlan trees = plan instanceof ViewTreePlan v ? v : null;
        if ((trees == null) != routes.isFallback()
                || (trees != null && routes.trees() != trees.viewTrees().size())) {
            throw new IllegalArgumentException("the routes do not fit the plan: fallback routes go with the fallback"
                    + " plan, one tree route per view tree with the others");
        }
        for (int t = 0; t < routes.trees(); t++) {
            if (routes.treeTag(t) == null && !isDirect(trees, trees.viewTrees().get(t))) {
                throw new IllegalArgumentException(
                        "tree " + t + " (" + trees.rootName(trees.viewTrees().get(t))
                                + ") has state below its root (or an empty schema): it needs its tree operator");
            }
        }
        this.plan = plan;
        this.semiring = semiring;
        this.routes = routes;
        this.epochTag = epochTag;
        this.snapshotEvery = snapshotEvery;
        this.progressEvery = progressEvery;
        this.periodMillis = periodMillis;
        this.miniBatch = miniBatch;
        this.first = first;
        this.windows = windows;
        windows.check(plan.query());
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        subtask = getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
        int parallelism = getRuntimeContext().getTaskInfo().getNumberOfParallelSubtasks();
        producer = first + subtask;
        if (producer >= Epochs.MAX_INGEST_SUBTASKS) {
            throw new IllegalStateException("ingest subtask " + producer + " of the job is beyond the "
                    + Epochs.MAX_INGEST_SUBTASKS + " an insert id can name: fewer inputs or a lower parallelism");
        }
        positionState = context.getOperatorStateStore()
                .getUnionListState(
                        new ListStateDescriptor<>(StateNames.INGEST_STATE, IngestPositionSerializer.INSTANCE));
        // The text state of earlier versions, read once and then left empty.
        legacyState = context.getOperatorStateStore()
                .getUnionListState(new ListStateDescriptor<>(StateNames.INGEST_EPOCHS, Types.STRING));
        List<IngestPosition> restored = new ArrayList<>();
        positionState.get().forEach(restored::add);
        for (String s : legacyState.get()) {
            restored.add(IngestPosition.fromText(s));
        }
        generation = 0;
        epoch = Epochs.FIRST;
        inEpoch = 0;
        sinceSnapshot = 0;
        count = 0;
        position = 0;
        bridge = false;
        boolean sameParallelism =
                !restored.isEmpty() && restored.stream().allMatch(r -> r.parallelism() == parallelism);
        if (sameParallelism) {
            for (IngestPosition r : restored) {
                if (r.subtask() == subtask) {
                    generation = r.generation();
                    epoch = r.epoch();
                    inEpoch = r.inEpoch();
                    count = r.count();
                    position = r.position();
                    sinceSnapshot = r.sinceSnapshot();
                }
            }
        } else if (!restored.isEmpty()) {
            // Rescaled: every subtask starts after the largest old epoch, and this one takes over the
            // counts of the old subtasks it stands for, a run of consecutive ones (as Flink deals the
            // source readers' split states out); the first thing it sends is that bridge.
            restored.sort((x, y) -> Integer.compare(x.subtask(), y.subtask()));
            int base = restored.size() / parallelism;
            int extra = restored.size() % parallelism;
            int from = subtask * base + Math.min(subtask, extra);
            int to = from + base + (subtask < extra ? 1 : 0);
            long largest = 0;
            int oldGeneration = 0;
            for (int i = 0; i < restored.size(); i++) {
                IngestPosition r = restored.get(i);
                largest = Math.max(largest, r.epoch());
                oldGeneration = Math.max(oldGeneration, r.generation());
                if (i >= from && i < to) {
                    count += r.count();
                    position += r.position();
                }
            }
            generation = oldGeneration + 1;
            epoch = largest;
            bridge = true;
        }
        if (routes.needsCells()) {
            layout = CellLayout.restoreOr(context, routes.freshLayout());
        }
        windowing = new IngestWindows(windows);
        windowing.restore(context.getOperatorStateStore(), subtask, sameParallelism);
    }

    /**
     * Whether tree {@code t}'s root updates can go from the ingest straight to the sink: its root
     * schema is not empty and it has no stateful view, so every atom's delta is the root view's delta
     * at the atom's key (an aggregate tree needs its operator's partial sums).
     */
    public static boolean isDirect(ViewTreePlan plan, ViewTree t) {
        return !t.schema().isEmpty() && plan.statefulNodes().stream().noneMatch(n -> n.tree() == t.index());
    }

    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        super.snapshotState(context);
        int parallelism = getRuntimeContext().getTaskInfo().getNumberOfParallelSubtasks();
        positionState.update(List.of(
                new IngestPosition(subtask, parallelism, generation, epoch, inEpoch, count, position, sinceSnapshot)));
        windowing.snapshot(subtask);
        legacyState.clear();
    }

    @Override
    public void open() throws Exception {
        super.open();
        query = plan.query();
        ring = !plan.inputs().isInsertOnly() && semiring instanceof Ring<T> z ? z : null;
        compiled = plan instanceof ViewTreePlan trees ? new CompiledPlan(trees) : null;
        router = compiled != null ? compiled.router() : new AtomRouter(query);
        deliver = this::deliver;
        List<String> relations = query.relations();
        perRelation = new Counter[relations.size()];
        checkedByFallback = new boolean[relations.size()];
        selective = new boolean[relations.size()];
        for (String r : routes.fallbackChecks()) {
            checkedByFallback[relations.indexOf(r)] = true;
        }
        for (Atom a : query.body()) {
            selective[relations.indexOf(a.relation())] |= !a.isPlain();
        }
        for (int i = 0; i < relations.size(); i++) {
            perRelation[i] =
                    getMetricGroup().addGroup("relation", relations.get(i)).counter(Metrics.INSERTS);
        }
        if (layout != null && routes.isFallback()) {
            atomCells = new CellFanOut[query.body().size()];
            for (Atom a : query.body()) {
                atomCells[a.index()] = new CellFanOut(layout, a.variables());
            }
        } else if (layout != null) {
            treeCells = new CellFanOut[routes.trees()];
            for (ViewTree t : compiled.plan().viewTrees()) {
                treeCells[t.index()] = new CellFanOut(layout, t.schema());
            }
        }
        if (compiled != null && routes.directTag() != null && miniBatch > 1) {
            boolean[] direct = new boolean[routes.trees()];
            @SuppressWarnings("unchecked") // an array of a generic type, filled with T's sinks only
            RootDeltaBatch.Sink<T>[] senders = new RootDeltaBatch.Sink[direct.length];
            for (int t = 0; t < direct.length; t++) {
                int tree = t;
                direct[t] = routes.treeTag(t) == null;
                senders[t] = (rootTuple, sum) -> toSink(epoch, tree, rootTuple, sum);
            }
            batches = new DirectBatches<>(semiring, direct, miniBatch, senders);
        }
        spreadKey = Tuple.of(producer);
        insertsCounter = getMetricGroup().counter(Metrics.INSERTS);
        deadLetterCounter = getMetricGroup().counter(Metrics.DEAD_LETTERS);
        epochsCounter = getMetricGroup().counter(Metrics.EPOCHS);
        directOut = getMetricGroup().counter(Metrics.DELTAS_OUT);
        windowing.open(relations, getMetricGroup().counter(Metrics.LATE_ROWS));
        if (periodMillis > 0) {
            scheduleTick();
        }
    }

    private void scheduleTick() {
        long now = getProcessingTimeService().getCurrentProcessingTime();
        getProcessingTimeService().registerTimer((now / periodMillis + 1) * periodMillis, time -> {
            if (!ended) {
                start();
                endEpoch(EpochKind.TICK, Epochs.tickEpoch(epoch, time, periodMillis));
                scheduleTick();
            }
        });
    }

    /** Before anything else after a (re)start: the bridge of a rescale, and the watermark of the epochs ended so far. */
    private void start() {
        if (started) {
            return;
        }
        started = true;
        if (bridge) {
            bridge = false;
            endEpoch(EpochKind.SNAPSHOT, Epochs.nextMajor(epoch));
        } else if (epoch > Epochs.FIRST) {
            output.emitWatermark(new Watermark(epoch - 1));
        } else {
            output.emitWatermark(new Watermark(0));
        }
    }

    @Override
    public void processElement(StreamRecord<InputRecord<T>> element) {
        start();
        position++;
        InputRecord<T> r = element.getValue();
        if (r.isSnapshotRequest()) {
            endEpoch(EpochKind.SNAPSHOT, Epochs.nextMajor(epoch));
            return;
        }
        if (r.isDropped()) {
            // A row its table's filter dropped is no insert; only key stages keep marks of such rows.
            return;
        }
        WindowAssignment window = windowOf(r);
        String problem = window == null ? validate(r) : IngestWindows.problem(r, window, query, semiring);
        if (problem != null) {
            deadLetter(r, problem);
            return;
        }
        int relation = router.relation(r.relation());
        if (window != null) {
            String late = windowing.assign(window, r.tuple());
            if (late != null) {
                deadLetter(r, late);
                return;
            }
        }
        T payload = r.payload();
        checkedDelete = false;
        if (r.isRetraction()) {
            if (checkedByFallback[relation]) {
                // The fallback checks it against its own relations, then takes the payload away.
                checkedDelete = true;
                reportAs = r.origin() == null ? "" : r.origin();
                reportRow = r.tuple();
            } else {
                // Checked upstream (the row check, or none: IvmOptions.withRowCheck(false)): a delete
                // is the insert of the inverse.
                payload = ring.negate(payload);
            }
        }
        count++;
        inEpoch++;
        sinceSnapshot++;
        insertsCounter.inc();
        perRelation[relation].inc();
        if (checkedDelete || !semiring.isZero(payload)) {
            insert = Epochs.insertId(producer, position);
            routed = 0;
            if (window == null) {
                router.route(relation, r.tuple(), payload, deliver);
            } else {
                for (int i = windowing.from(); i < windowing.count(); i++) {
                    router.route(relation, windowing.withWindow(window, r.tuple(), i), payload, deliver);
                }
            }
            if (routed == 0 && checkedByFallback[relation] && selective[relation]) {
                // No atom matches the row: the fallback keeps it apart, to check its deletes.
                emit(
                        routes.fallbackTag(),
                        fallbackDelta(query.body().size() + relation, r.tuple(), payload, outsideKey(r.tuple())));
            }
        }
        if (snapshotEvery > 0 && sinceSnapshot >= snapshotEvery) {
            endEpoch(EpochKind.SNAPSHOT, Epochs.nextMajor(epoch));
        } else if (progressEvery > 0 && inEpoch >= progressEvery) {
            endEpoch(EpochKind.PROGRESS, Epochs.nextMinor(epoch));
        }
    }

    private void deadLetter(InputRecord<T> r, String problem) {
        deadLetterCounter.inc();
        output.collect(new StreamRecord<>(new DeadLetter(r.origin(), problem, String.valueOf(r))));
    }

    /** The window assignment of {@code r}'s relation, or null (none, or not a relation of the query). */
    private WindowAssignment windowOf(InputRecord<T> r) {
        if (r.relation() == null || windows.isEmpty()) {
            return null;
        }
        return windowing.of(router.relation(r.relation()));
    }

    private String validate(InputRecord<T> r) {
        if (r.isRetraction() && (ring == null || !plan.inputs().hasDeletes(r.relation()))) {
            return insertOnly(r, plan.inputs().changelog());
        }
        return problem(r, router, semiring, false);
    }

    /**
     * Why {@code r} cannot be an insert into {@code router}'s query over {@code semiring} (no relation,
     * tuple or payload, an unknown relation, a wrong arity, a payload of another type), or null.
     */
    public static <T> String problem(InputRecord<T> r, AtomRouter router, Semiring<T> semiring) {
        return problem(r, router, semiring, true);
    }

    /**
     * As {@link #problem(InputRecord, AtomRouter, Semiring)}; with {@code insertsOnly}, a delete or
     * the old row of an update is a problem too (it reached an operator behind which no row check runs).
     */
    public static <T> String problem(InputRecord<T> r, AtomRouter router, Semiring<T> semiring, boolean insertsOnly) {
        if (insertsOnly && r.isRetraction()) {
            return insertOnly(r, List.of());
        }
        if (r.relation() == null || r.tuple() == null) {
            return "insert without relation or tuple";
        }
        if (r.payload() == null) {
            return "insert without payload";
        }
        String problem = router.problem(r.relation(), r.tuple().arity());
        if (problem != null) {
            return problem;
        }
        if (!semiring.payloadClass().isInstance(r.payload())) {
            return "payload " + r.payload() + " is not a " + semiring.name() + " payload";
        }
        return null;
    }

    /** Why a delete (or the old row of an update) of a relation read as insert-only is rejected. */
    static String insertOnly(InputRecord<?> r, List<String> changelog) {
        return "a " + r.kind().shortString() + " of " + r.relation() + r.tuple() + ", but " + r.relation()
                + " is insert-only in this plan"
                + (changelog.isEmpty()
                        ? ", as every relation: plan the query with the relations that receive deletes"
                                + " (Inputs.changelog) over a ring"
                        : "; the relations with deletes are " + String.join(", ", changelog));
    }

    /**
     * Where the delta of atom {@code a} of the current insert goes (its key as core's
     * {@link AtomRouter} made it: the route's key, or for the fallback the atom's tuple).
     */
    private void deliver(int a, Tuple key, T payload) {
        if (compiled != null) {
            int tree = compiled.plan().atomRoute(a).tree();
            OutputTag<Delta<T>> tag = routes.treeTag(tree);
            if (tag == null) {
                batchDirect(tree, key, payload);
                return;
            }
            // A delta into the root view of a tree without free variables needs no state on the
            // way: spread such deltas over the tree's subtasks by the ingest subtask.
            Tuple partition = key.arity() == 0 ? spreadKey : null;
            emit(tag, new Delta<>(epoch, a, key, payload, insert, partition));
        } else if (atomCells == null) {
            emit(routes.fallbackTag(), fallbackDelta(a, key, payload, null));
        } else {
            int n = atomCells[a].route(key);
            for (int i = 0; i < n; i++) {
                emit(routes.fallbackTag(), fallbackDelta(a, key, payload, atomCells[a].key(i)));
            }
        }
    }

    /**
     * Where the fallback keeps a row no atom matches: a cell chosen by the row's hash, or (keyed by a
     * variable's value) the hash itself.
     */
    private Tuple outsideKey(Tuple row) {
        int h = row.hashCode();
        return layout != null ? layout.key(Math.floorMod(h, layout.cells())) : Tuple.of((long) h);
    }

    /** A delta for the fallback; of a checked delete, the first one reports a rejection. */
    private Delta<T> fallbackDelta(int a, Tuple key, T payload, Tuple cell) {
        routed++;
        if (!checkedDelete) {
            return new Delta<>(epoch, a, key, payload, insert, cell);
        }
        String origin = reportAs;
        reportAs = null;
        return new Delta<>(epoch, a, key, payload, insert, cell, true, origin, origin == null ? null : reportRow);
    }

    private void emit(OutputTag<Delta<T>> tag, Delta<T> delta) {
        output.collect(tag, new StreamRecord<>(delta));
    }

    /** A root view's delta for the sink: into the mini-batch ({@link DirectBatches}), or at once without one. */
    private void batchDirect(int tree, Tuple key, T payload) {
        if (batches == null) {
            toSink(epoch, tree, key, payload);
        } else {
            batches.add(tree, key, payload);
        }
    }

    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        super.prepareSnapshotPreBarrier(checkpointId);
        if (batches != null) {
            batches.flush();
        }
    }

    /** A root view's delta straight to the sink: to its one subtask, or to every cell that agrees with it. */
    private void toSink(long epoch, int tree, Tuple tuple, T payload) {
        if (treeCells == null) {
            directOut.inc();
            output.collect(routes.directTag(), new StreamRecord<>(RootUpdate.of(epoch, tree, tuple, payload)));
            return;
        }
        int n = treeCells[tree].route(tuple);
        for (int i = 0; i < n; i++) {
            directOut.inc();
            output.collect(
                    routes.directTag(),
                    new StreamRecord<>(new RootUpdate<>(epoch, tree, tuple, payload, treeCells[tree].key(i))));
        }
    }

    /**
     * Ends the current epoch (its end to every sink, then the watermark), asking for a snapshot or
     * not as {@code kind} says, and starts epoch {@code next}. An end that starts a new major (every end that may ask for a
     * snapshot) reports the epoch as its major's last number ({@link Epochs#endOfMajor}).
     */
    private void endEpoch(EpochKind kind, long next) {
        if (batches != null) {
            batches.flush();
        }
        long ended = next > Epochs.endOfMajor(epoch) ? Epochs.endOfMajor(epoch) : epoch;
        output.collect(
                epochTag,
                new StreamRecord<>(new EpochEnd(
                        producer,
                        generation,
                        ended,
                        count,
                        kind.deterministic(),
                        kind.snapshot(),
                        windowing.eventWatermark())));
        output.emitWatermark(new Watermark(ended));
        epochsCounter.inc();
        epoch = next;
        inEpoch = 0;
        if (kind.snapshot()) {
            sinceSnapshot = 0;
        }
    }

    /**
     * Only the end of the input is passed on, after this subtask's last epoch ended; the others are the
     * input's event time, which decides which rows of windowed relations are late.
     */
    @Override
    public void processWatermark(Watermark mark) {
        if (mark.getTimestamp() == Long.MAX_VALUE) {
            closeInput();
        } else {
            windowing.advance(mark.getTimestamp());
        }
    }

    /**
     * Ends the last epoch and then sends the final watermark: this subtask sends nothing more, and
     * downstream operators must not wait for its epochs while other subtasks go on (a finished
     * input's last watermark would otherwise hold them back until every input finished).
     */
    @Override
    public void endInput() {
        closeInput();
    }

    private void closeInput() {
        if (!ended) {
            start();
            ended = true;
            // No row comes after the end of the input: its last epoch end closes every window.
            windowing.advance(Long.MAX_VALUE);
            endEpoch(EpochKind.SNAPSHOT, Epochs.nextMajor(epoch));
            output.emitWatermark(Watermark.MAX_WATERMARK);
        }
    }
}
