package io.flinkivm.flink;

import io.flinkivm.core.partition.RelationRates;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.InvalidQueryException;
import io.flinkivm.core.window.WindowAssignment;
import io.flinkivm.core.window.WindowSpec;
import io.flinkivm.core.window.Windows;
import java.io.Serializable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.flink.annotation.PublicEvolving;

/**
 * Options of a flink-ivm job. Immutable; each {@code with...} returns a copy.
 *
 * @param snapshotEvery end an epoch, and so take a snapshot, after every this many inserts of each
 *     ingest subtask (0, the default: only at the end of bounded input and on control records)
 * @param snapshotPeriod also end an epoch on every tick of this processing-time period (null, the
 *     default: never); every ingest subtask ticks at the same wall-clock times, so this keeps
 *     subtasks with unequal input rates, and idle ones, in step
 * @param parallelism the parallelism of every flink-ivm operator (0, the default: the environment's)
 * @param strategy the planner strategy (default {@link Planner.Strategy#AUTO})
 * @param outputMode snapshots (default) or a changelog of upserts
 * @param progressEvery end an epoch without a snapshot after every this many inserts of each ingest
 *     subtask (0, the default: never): the watermark after the sink then says how far the job is
 *     ({@link IvmJob#epochs()} tells how many inserts each epoch holds)
 * @param miniBatch how many root tuples a view tree operator collects before it sends their last
 *     updates to the sink (default {@value #DEFAULT_MINI_BATCH}; 1: every update at once); a batch also
 *     goes out when its epoch ends and before a checkpoint, so it only saves the sink the updates a
 *     root tuple gets within one batch
 * @param managedState keep the view trees' and the sink's state in Flink's managed keyed state also
 *     on the heap backend (default false: there it lives in the operators' own hash maps, written to
 *     raw keyed state at checkpoints, which is faster but ties savepoints to the heap backend)
 * @param updateBefore in changelog mode, emit an update's old payload ({@code -U}) before its new one
 *     ({@code +U}), for sinks that need retractions (default false: upserts, {@code +I} and {@code +U})
 * @param relationRates how fast each relation of the query receives inserts, relative to the others
 *     (e.g. the tables' sizes): the sink's HyperCube cells are then sized for the expected load per
 *     cell ({@link RelationRates}); default empty: every root view counts as equally fast. Given, it
 *     must name every relation of the query and no other
 * @param relationKeys keys of the query's relations that its text does not declare, by relation: the
 *     columns (from 0) of each key ({@link #withRelationKey}); merged with the text's keys when the job
 *     is planned from the text, a different key for one relation being an error; default empty
 * @param primaryKeys primary keys of SQL tables whose connector cannot declare one (for {@code
 *     FlinkIvmSql.sql} of flink-ivm-sql): table name (as FROM names it) to key columns; a table's own
 *     declared key takes precedence only if equal, a different one is an error (default empty)
 * @param rowCheck for a plan whose inputs have deletes: check each delete against the live rows of its
 *     relation in a keyed operator in front of the ingest (default true; see {@link #withRowCheck})
 * @param keyChecks check also the keys a plan relies on only through the head's closure, in key stages
 *     (default false: they are trusted, as Flink trusts {@code NOT ENFORCED}; see {@link #withKeyChecks})
 * @param uidPrefix the prefix of the uids of flink-ivm's operators, which savepoints map state by
 *     (null, the default: {@code ivm-} and a fingerprint of the plan); give each of two queries with
 *     the same plan in one job its own
 * @param stateTtl idle state retention: keyed state not written for this long expires (null, the
 *     default: not set, so never, unless {@code FlinkIvmSql.sql} takes {@code table.exec.state.ttl};
 *     zero: never, set explicitly); see {@link #withStateTtl}
 * @param windows the event-time windows of the query's relations ({@link #withWindow}; default none)
 * @param windowEmit in changelog mode, whether a window's groups are emitted as they change or once,
 *     final, when the window closes ({@link #withWindowEmit}; default {@link WindowEmit#CHANGES})
 */
@PublicEvolving
public record IvmOptions(
        long snapshotEvery,
        Duration snapshotPeriod,
        int parallelism,
        Planner.Strategy strategy,
        OutputMode outputMode,
        long progressEvery,
        int miniBatch,
        boolean managedState,
        boolean updateBefore,
        Map<String, Double> relationRates,
        Map<String, List<Integer>> relationKeys,
        Map<String, List<String>> primaryKeys,
        boolean rowCheck,
        boolean keyChecks,
        String uidPrefix,
        Duration stateTtl,
        Windows windows,
        WindowEmit windowEmit)
        implements Serializable {

    /** Default of {@link #miniBatch()}. */
    public static final int DEFAULT_MINI_BATCH = 10_000;

    public IvmOptions {
        if (snapshotEvery < 0) {
            throw new IllegalArgumentException("snapshotEvery must be >= 0, got " + snapshotEvery);
        }
        if (snapshotPeriod != null && (snapshotPeriod.isNegative() || snapshotPeriod.isZero())) {
            throw new IllegalArgumentException("snapshotPeriod must be positive, got " + snapshotPeriod);
        }
        if (parallelism < 0) {
            throw new IllegalArgumentException("parallelism must be >= 0 (0: the environment's), got " + parallelism);
        }
        if (strategy == null) {
            throw new IllegalArgumentException("strategy must not be null");
        }
        if (outputMode == null) {
            throw new IllegalArgumentException("outputMode must not be null");
        }
        if (progressEvery < 0) {
            throw new IllegalArgumentException("progressEvery must be >= 0, got " + progressEvery);
        }
        if (miniBatch < 1) {
            throw new IllegalArgumentException("miniBatch must be >= 1, got " + miniBatch);
        }
        relationRates = new RelationRates(relationRates == null ? Map.of() : relationRates).rates();
        Map<String, List<Integer>> keys = new LinkedHashMap<>();
        if (relationKeys != null) {
            relationKeys.forEach(
                    (relation, columns) -> keys.put(relation, new ConjunctiveQuery.Key(relation, columns).positions()));
        }
        relationKeys = Collections.unmodifiableMap(keys);
        Map<String, List<String>> tableKeys = new LinkedHashMap<>();
        if (primaryKeys != null) {
            primaryKeys.forEach((table, columns) -> {
                if (columns == null || columns.isEmpty()) {
                    throw new IllegalArgumentException("the primary key of " + table + " needs at least one column");
                }
                tableKeys.put(table, List.copyOf(columns));
            });
        }
        primaryKeys = Collections.unmodifiableMap(tableKeys);
        if (stateTtl != null && (stateTtl.isNegative() || (!stateTtl.isZero() && stateTtl.toMillis() == 0))) {
            throw new IllegalArgumentException(
                    "stateTtl must be zero (no expiry) or at least one millisecond, got " + stateTtl);
        }
        windows = windows == null ? Windows.NONE : windows;
        windowEmit = windowEmit == null ? WindowEmit.CHANGES : windowEmit;
    }

    /** Snapshots at the end of input and on control records, the environment's parallelism, AUTO planning. */
    public static IvmOptions defaults() {
        return new IvmOptions(
                0,
                null,
                0,
                Planner.Strategy.AUTO,
                OutputMode.SNAPSHOT,
                0,
                DEFAULT_MINI_BATCH,
                false,
                false,
                Map.of(),
                Map.of(),
                Map.of(),
                true,
                false,
                null,
                null,
                Windows.NONE,
                WindowEmit.CHANGES);
    }

    public IvmOptions withSnapshotEvery(long inserts) {
        return inserts == snapshotEvery ? this : with(d -> d.snapshotEvery = inserts);
    }

    public IvmOptions withSnapshotPeriod(Duration period) {
        return with(d -> d.snapshotPeriod = period);
    }

    /** Runs every flink-ivm operator at {@code p} subtasks (0: the environment's parallelism). */
    public IvmOptions withParallelism(int p) {
        return p == parallelism ? this : with(d -> d.parallelism = p);
    }

    public IvmOptions withOutputMode(OutputMode mode) {
        return mode == outputMode ? this : with(d -> d.outputMode = mode);
    }

    public IvmOptions withStrategy(Planner.Strategy s) {
        return s == strategy ? this : with(d -> d.strategy = s);
    }

    /** Ends an epoch without a snapshot after every {@code inserts} inserts of each ingest subtask (0: never). */
    public IvmOptions withProgressEvery(long inserts) {
        return inserts == progressEvery ? this : with(d -> d.progressEvery = inserts);
    }

    /**
     * Root tuples a view tree operator, and the ingest for trees without state below the root, sum
     * deltas for before sending them to the sink (1: no batching).
     */
    public IvmOptions withMiniBatch(int rootTuples) {
        return rootTuples == miniBatch ? this : with(d -> d.miniBatch = rootTuples);
    }

    /** Keeps flink-ivm's state in Flink's managed keyed state also on the heap backend (see {@link #managedState()}). */
    public IvmOptions withManagedState(boolean managed) {
        return managed == managedState ? this : with(d -> d.managedState = managed);
    }

    /** In changelog mode, emits an update's old payload ({@code -U}) before its new one (see {@link #updateBefore()}). */
    public IvmOptions withUpdateBefore(boolean before) {
        return before == updateBefore ? this : with(d -> d.updateBefore = before);
    }

    /**
     * Sizes the sink's HyperCube cells for these relative insert rates per relation (see
     * {@link #relationRates()}); an empty map: every root view counts as equally fast.
     *
     * @throws IllegalArgumentException if a rate is not a positive finite number
     */
    public IvmOptions withRelationRates(Map<String, Double> rates) {
        return with(d -> d.relationRates = rates);
    }

    /**
     * Declares a key of {@code relation}: its columns at {@code positions} (from 0) determine the whole
     * row, for a query whose text declares none (the datalog text's {@code KEY}, or a table's primary
     * key in SQL). The planner may then rely on it (see {@link Planner}); a row that breaks a key the
     * plan relies on becomes a dead letter.
     *
     * @throws IllegalArgumentException if {@code relation} already has another key here
     */
    public IvmOptions withRelationKey(String relation, int... positions) {
        List<Integer> columns = ConjunctiveQuery.Key.of(relation, positions).positions();
        List<Integer> known = relationKeys.get(relation);
        if (known != null && !known.equals(columns)) {
            throw new IllegalArgumentException("relation " + relation + " already has the key columns " + known
                    + " in these options, not " + columns + "; a relation has at most one key");
        }
        return columns.equals(known)
                ? this
                : with(d -> {
                    Map<String, List<Integer>> keys = new LinkedHashMap<>(d.relationKeys);
                    keys.put(relation, columns);
                    d.relationKeys = keys;
                });
    }

    /**
     * {@code query} with the keys of {@link #relationKeys()} added to its own.
     *
     * @throws InvalidQueryException if a key names a relation the query does not use or a column beyond its
     *     arity, or the query declares another key for the same relation
     */
    public ConjunctiveQuery withRelationKeys(ConjunctiveQuery query) {
        if (relationKeys.isEmpty()) {
            return query;
        }
        List<ConjunctiveQuery.Key> keys = new ArrayList<>(query.keys());
        for (Map.Entry<String, List<Integer>> e : relationKeys.entrySet()) {
            ConjunctiveQuery.Key option = new ConjunctiveQuery.Key(e.getKey(), e.getValue());
            ConjunctiveQuery.Key own = query.keyOf(e.getKey());
            if (own != null && !own.equals(option)) {
                throw new InvalidQueryException("relation " + e.getKey() + " has the key " + query.keyText(own)
                        + " (columns " + own.positions() + ") in the query and columns " + option.positions()
                        + " in IvmOptions.withRelationKey; a relation has at most one key");
            }
            if (own == null) {
                keys.add(option);
            }
        }
        return query.withKeys(keys);
    }

    /**
     * Declares the primary key of a SQL table whose connector cannot declare one (e.g. a view over a
     * DataStream): {@code table} as the query's FROM names it, its key columns. Like a declared
     * {@code PRIMARY KEY ... NOT ENFORCED}, it lets the planner use the functional dependencies the key
     * gives, and a row that breaks it becomes a dead letter.
     */
    public IvmOptions withPrimaryKey(String table, String... columns) {
        Map<String, List<String>> keys = new LinkedHashMap<>(primaryKeys);
        keys.put(table, List.of(columns));
        return with(d -> d.primaryKeys = keys);
    }

    /**
     * With {@code false}, a job whose plan has deletes runs without the row check: its input's deletes
     * and {@code -U} rows are known to take away only what their rows hold (checked upstream, as the
     * command line does while it reads its input, or by a source that only deletes what it inserted),
     * so they go to the ingest as they come, which saves a shuffle and a state read per change, and
     * rows may be spread over the source's splits in any way. An invalid delete then corrupts the result
     * instead of becoming a dead letter.
     */
    public IvmOptions withRowCheck(boolean check) {
        return check == rowCheck ? this : with(d -> d.rowCheck = check);
    }

    /**
     * With {@code true}, a plan that relies on a key only through the head's closure (the key's table
     * is never looked up while rows flow, as {@code o_custkey} in TPC-H Q3 grouped by the order key)
     * checks that key in a key stage, which dead-letters every row that breaks it, at the cost of a
     * keyed exchange and the key's rows in state. By default such keys are trusted, as Flink trusts
     * {@code PRIMARY KEY ... NOT ENFORCED}: the result is the query's on data where they hold. Keys that
     * are looked up (the atoms' closure, absorbed key tables) are always checked. {@code explain} says
     * which keys are trusted and which are checked.
     */
    public IvmOptions withKeyChecks(boolean checks) {
        return checks == keyChecks ? this : with(d -> d.keyChecks = checks);
    }

    /**
     * Assigns event-time windows to {@code relation}'s rows: the value at {@code timeColumn} (from 0) is
     * the row's event time in epoch milliseconds, and each row becomes one insert per window it belongs
     * to, with {@code window_start} and {@code window_end} appended, so the relation's atoms have two
     * terms more than its rows. A row goes into its windows that are open (a window has closed once
     * its end - 1 ms is at most the event-time watermark its input has reached); a row whose windows
     * have all closed is a dead letter. The input stream's timestamps and
     * watermarks are the user's ({@code assignTimestampsAndWatermarks}). Replaces an earlier window of
     * the relation.
     */
    public IvmOptions withWindow(String relation, int timeColumn, WindowSpec window) {
        return withWindow(WindowAssignment.of(relation, timeColumn, window));
    }

    /** As {@link #withWindow(String, int, WindowSpec)}, with the time column's unit and an allowed lateness. */
    public IvmOptions withWindow(WindowAssignment assignment) {
        return with(d -> d.windows = d.windows.with(assignment));
    }

    /**
     * In changelog mode, emits a window's groups once, final, at the first trigger after the window
     * closed ({@link WindowEmit#FINAL}, as Flink SQL's window aggregates), or as they change ({@link
     * WindowEmit#CHANGES}, the default). {@code FINAL} needs a result collected by window: the sink
     * keyed by a window variable, which {@code explain} says.
     */
    public IvmOptions withWindowEmit(WindowEmit emit) {
        return emit == windowEmit ? this : with(d -> d.windowEmit = emit);
    }

    /** These options with {@code windows} added (each replaces an earlier window of its relation). */
    public IvmOptions withWindows(Windows windows) {
        IvmOptions out = this;
        for (WindowAssignment w : windows.assignments()) {
            out = out.withWindow(w);
        }
        return out;
    }

    /** Starts the uids of flink-ivm's operators with {@code prefix} (see {@link #uidPrefix()}; null: from the plan). */
    public IvmOptions withUidPrefix(String prefix) {
        return with(d -> d.uidPrefix = prefix);
    }

    /**
     * Idle state retention, as Flink SQL's {@code table.exec.state.ttl}: an entry of the operators' keyed
     * state (a view key's payloads, a root tuple's join record, a key row, a row check's row, a fallback
     * relation's tuple) that has not been written for {@code ttl} expires, so the state of keys that stop
     * receiving rows is dropped. A row that arrives for an expired entry finds it absent, so results may
     * become incorrect (docs/state.md says which). Reads do not count as touches (Flink SQL's joins and
     * aggregates likewise). The operators then keep their state in Flink's managed keyed state on every
     * backend, with Flink's TTL. {@link Duration#ZERO}: no expiry, also when {@code FlinkIvmSql.sql}
     * finds {@code table.exec.state.ttl} set; null: not set (the default, no expiry).
     *
     * @throws IllegalArgumentException if {@code ttl} is negative or positive below one millisecond
     */
    public IvmOptions withStateTtl(Duration ttl) {
        return with(d -> d.stateTtl = ttl);
    }

    /** The state TTL in milliseconds, 0 when state does not expire (not set, or set to zero). */
    public long stateTtlMillis() {
        return stateTtl == null ? 0 : stateTtl.toMillis();
    }

    /** A copy of these options with {@code change} applied to it (and checked). */
    private IvmOptions with(Consumer<Draft> change) {
        Draft d = new Draft(this);
        change.accept(d);
        return d.done();
    }

    /** A copy of these options being changed by one {@code with...} method; {@link #done} checks it. */
    private static final class Draft {
        long snapshotEvery;
        Duration snapshotPeriod;
        int parallelism;
        Planner.Strategy strategy;
        OutputMode outputMode;
        long progressEvery;
        int miniBatch;
        boolean managedState;
        boolean updateBefore;
        Map<String, Double> relationRates;
        Map<String, List<Integer>> relationKeys;
        Map<String, List<String>> primaryKeys;
        boolean rowCheck;
        boolean keyChecks;
        String uidPrefix;
        Duration stateTtl;
        Windows windows;
        WindowEmit windowEmit;

        Draft(IvmOptions o) {
            snapshotEvery = o.snapshotEvery;
            snapshotPeriod = o.snapshotPeriod;
            parallelism = o.parallelism;
            strategy = o.strategy;
            outputMode = o.outputMode;
            progressEvery = o.progressEvery;
            miniBatch = o.miniBatch;
            managedState = o.managedState;
            updateBefore = o.updateBefore;
            relationRates = o.relationRates;
            relationKeys = o.relationKeys;
            primaryKeys = o.primaryKeys;
            rowCheck = o.rowCheck;
            keyChecks = o.keyChecks;
            uidPrefix = o.uidPrefix;
            stateTtl = o.stateTtl;
            windows = o.windows;
            windowEmit = o.windowEmit;
        }

        IvmOptions done() {
            return new IvmOptions(
                    snapshotEvery,
                    snapshotPeriod,
                    parallelism,
                    strategy,
                    outputMode,
                    progressEvery,
                    miniBatch,
                    managedState,
                    updateBefore,
                    relationRates,
                    relationKeys,
                    primaryKeys,
                    rowCheck,
                    keyChecks,
                    uidPrefix,
                    stateTtl,
                    windows,
                    windowEmit);
        }
    }

    /** {@link #relationRates()} as core's {@link RelationRates}. */
    public RelationRates rates() {
        return new RelationRates(relationRates);
    }
}
