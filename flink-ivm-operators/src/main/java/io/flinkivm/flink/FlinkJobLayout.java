package io.flinkivm.flink;

import io.flinkivm.core.partition.HyperCube;
import io.flinkivm.core.partition.RelationRates;
import io.flinkivm.core.partition.Shares;
import io.flinkivm.core.plan.CyclicPHierarchicalPlan;
import io.flinkivm.core.plan.Enrichment;
import io.flinkivm.core.plan.FallbackPlan;
import io.flinkivm.core.plan.KeyLookup;
import io.flinkivm.core.plan.KeyStage;
import io.flinkivm.core.plan.KeyedPlan;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.QHierarchicalPlan;
import io.flinkivm.core.plan.ViewNode;
import io.flinkivm.core.plan.ViewTree;
import io.flinkivm.core.plan.ViewTreePlan;
import io.flinkivm.core.query.Atom;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.window.Windows;
import io.flinkivm.flink.ingest.IngestOperator;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import org.apache.flink.annotation.Internal;

/**
 * The Flink job flink-ivm builds for a plan at a parallelism: its operators in order, each with its
 * name (as the web UI shows it), parallelism and how its input is partitioned. An insert crosses at
 * most two shuffles: from the ingest to the operator of its view tree (keyed by the tree's root
 * schema), and from there to the sink (keyed by a free variable that every root schema has, or else
 * spread over the cells of a HyperCube over the free variables, {@link Shares}, sized for the
 * relations' insert rates when they are given, {@link RelationRates}). A tree without state
 * below its root (each atom feeds the root view through projections only, e.g. every tree of a
 * foreign-key join) has no operator: the ingest sends its root view's deltas straight to the sink,
 * one shuffle. The fallback has one: from the ingest to its partitions. {@link #explain()} prints the
 * layout; the job builder follows it.
 */
@Internal
public final class FlinkJobLayout implements Serializable {
    private static final long serialVersionUID = 1L;
    private static final String BROADCAST = "; epoch ends: broadcast from the ingest";

    /** One operator of the job: its name, parallelism and input partitioning. */
    public record Operator(String name, int parallelism, String input) implements Serializable {}

    private final MaintenancePlan plan;
    /** The plan the ingest and the operators after it run: the closed query's, for a {@link KeyedPlan}. */
    private final MaintenancePlan maintained;

    private final int parallelism;
    /** For a {@link KeyedPlan}: the key route and the key stages, in front of the ingest (else empty). */
    private final List<Operator> keyOperators;
    /** For a {@link KeyedPlan} whose head gained variables: the projection of the results to the query's head, or null. */
    private final Operator projection;

    /**
     * For a plan whose inputs have deletes: the row check in front of the ingest (else null), for the
     * relations with deletes of a plan other than the fallback, which checks deletes itself
     * ({@link #fallbackChecks}).
     */
    private final Operator rowCheck;

    private final List<String> fallbackChecks;

    private final Operator ingest;
    private final List<Operator> trees;
    /** Per tree index, its operator, or null when its root updates go straight from the ingest to the sink. */
    private final List<Operator> treeOperators;

    private final List<Integer> directTrees;
    private final Operator sink;
    private final Shares shares;
    private final String hashVariable;
    /**
     * A window variable in every part of the result that closes with its windows ({@link
     * Windows#sinkVariable}), which keys the sink (or fallback) first; or null.
     */
    private final String windowVariable;

    private final Windows windows;
    /** The variables that key the sink (or fallback); empty: HyperCube cells. */
    private final List<String> sinkKey;

    private final RelationRates rates;
    /** Per part of the result (root view, or the fallback's atom): its rate of updates (1 each without rates). */
    private final double[] weights;

    /** The state TTL in milliseconds ({@link IvmOptions#withStateTtl}); 0: none. */
    private final long stateTtlMillis;
    /** Whether deletes are checked at all ({@link IvmOptions#withRowCheck}). */
    private final boolean checksRows;

    private FlinkJobLayout(
            MaintenancePlan original,
            int parallelism,
            RelationRates rates,
            boolean rowCheck,
            long stateTtlMillis,
            Windows windows) {
        this.plan = original;
        this.windows = windows;
        this.stateTtlMillis = stateTtlMillis;
        this.checksRows = rowCheck;
        MaintenancePlan plan = original instanceof KeyedPlan keyed ? keyed.closed() : original;
        this.maintained = plan;
        this.parallelism = parallelism;
        this.rates = rates;
        boolean deletes = !plan.inputs().isInsertOnly();
        boolean byKey = deletes
                && original instanceof KeyedPlan keyed
                && !keyed.stages().isEmpty();
        // Under deletes a key stage checks its relation's rows itself; the row check, before the key
        // route, checks the others.
        List<String> checked = new ArrayList<>();
        if (byKey) {
            for (String r : original.inputs().changelog()) {
                if (((KeyedPlan) original).stage(r) < 0) {
                    checked.add(r);
                }
            }
        } else {
            checked.addAll(plan.inputs().changelog());
        }
        boolean checks = rowCheck && !checked.isEmpty();
        this.keyOperators = original instanceof KeyedPlan keyed
                ? keyOperators(
                        keyed,
                        parallelism,
                        byKey && checks
                                ? "forward from the row check"
                                : byKey
                                        ? "forward from a source at the same parallelism, else hash(relation, key)"
                                        : null)
                : List.of();
        // The fallback checks deletes against its own relations; the other plans behind a row check.
        boolean byFallback = checks && plan instanceof FallbackPlan;
        this.fallbackChecks = byFallback ? plan.inputs().changelog() : List.of();
        this.rowCheck = !checks || byFallback
                ? null
                : new Operator(
                        "row check " + String.join(", ", checked) + " (deletes of absent rows are dead letters)",
                        parallelism,
                        byKey ? "hash(relation, key; row of a relation without a key stage)" : "hash(relation, row)");
        this.ingest = new Operator(
                "ingest " + plan.query().name() + " (validate, route, epochs)",
                parallelism,
                this.rowCheck != null && keyOperators.isEmpty()
                        ? "forward from the row check"
                        : !fallbackChecks.isEmpty()
                                ? "forward from a source at the same parallelism, else hash(relation, row)"
                                : keyOperators.isEmpty()
                                        ? "one per input, in its chain: forward from a source at the same parallelism,"
                                                + " else rebalance"
                                        : "forward from the key route and the key stages (one exchange, not chained: it"
                                                + " takes several inputs)");
        this.projection =
                original instanceof KeyedPlan keyed && !keyed.addedHead().isEmpty()
                        ? new Operator(
                                "results over " + subject(keyed.query()) + " (drop "
                                        + String.join(",", keyed.addedHead()) + ")",
                                parallelism,
                                "forward from the sink")
                        : null;
        List<String> head = plan.query().head();
        List<List<String>> schemas = new ArrayList<>();
        List<List<Integer>> parts = new ArrayList<>();
        ViewTreePlan treePlan = plan instanceof ViewTreePlan v ? v : null;
        if (treePlan == null) {
            for (Atom a : plan.query().body()) {
                schemas.add(a.variables().stream().filter(head::contains).toList());
                parts.add(List.of(a.index()));
            }
        } else {
            for (ViewTree t : treePlan.viewTrees()) {
                schemas.add(t.schema());
                parts.add(t.atoms());
            }
        }
        // Rates name the query's relations: a part of the closed query's result counts its atoms' relations
        // in the query (an absorbed atom's rows go to no part).
        if (original instanceof KeyedPlan keyed) {
            List<List<Integer>> originalParts = new ArrayList<>();
            for (List<Integer> part : parts) {
                List<Integer> atoms = new ArrayList<>();
                for (int a : part) {
                    atoms.add(keyed.originalAtom(a));
                }
                originalParts.add(atoms);
            }
            parts = originalParts;
        }
        this.weights = rates.weights(original.query(), parts);
        // A free variable in every part of the result keys the sink by its value (each part then belongs
        // to one key, at any parallelism); otherwise HyperCube cells.
        String everywhere = null;
        for (String v : head) {
            if (everywhere == null && schemas.stream().allMatch(schema -> schema.contains(v))) {
                everywhere = v;
            }
        }
        this.hashVariable = everywhere;
        // Keyed also by a window variable, the sink drops a window's state whole when it closes.
        String closing = windows.sinkVariable(original);
        this.windowVariable = closing;
        // The window first, and another variable of every part, if there is one, so that the groups of
        // one window spread over the subtasks.
        List<String> keyVariables = new ArrayList<>();
        if (closing != null) {
            keyVariables.add(closing);
        }
        for (String v : head) {
            if (keyVariables.size() < (closing == null ? 1 : 2)
                    && !v.equals(closing)
                    && schemas.stream().allMatch(schema -> schema.contains(v))) {
                keyVariables.add(v);
            }
        }
        this.sinkKey = List.copyOf(keyVariables);
        this.shares = everywhere != null
                ? null
                : HyperCube.shares(head, schemas, rates.isEmpty() ? null : weights, parallelism);
        int sinkParallelism = everywhere != null ? parallelism : Math.min(parallelism, shares.cells());
        List<Operator> t = new ArrayList<>();
        if (treePlan == null) {
            this.trees = List.of();
            this.treeOperators = List.of();
            this.directTrees = List.of();
            this.sink = new Operator(
                    "delta joins over " + plan.semiring() + " (fallback)",
                    sinkParallelism,
                    partitioning(
                                    schemas,
                                    plan.query().body().stream()
                                            .map(Atom::toString)
                                            .toList())
                            + BROADCAST);
            return;
        }
        List<Operator> byIndex = new ArrayList<>();
        List<Integer> direct = new ArrayList<>();
        List<String> directNames = new ArrayList<>();
        for (ViewTree tree : treePlan.viewTrees()) {
            if (IngestOperator.isDirect(treePlan, tree)) {
                byIndex.add(null);
                direct.add(tree.index());
                directNames.add(treePlan.rootName(tree));
                continue;
            }
            List<String> key = treeKey(treePlan, tree);
            Operator o = new Operator(
                    treeName(treePlan, tree),
                    parallelism,
                    key.isEmpty() ? "hash(ingest subtask)" : "hash(" + String.join(",", key) + ")");
            t.add(o);
            byIndex.add(o);
        }
        this.trees = List.copyOf(t);
        this.treeOperators = Collections.unmodifiableList(byIndex);
        this.directTrees = List.copyOf(direct);
        List<String> roots =
                treePlan.viewTrees().stream().map(treePlan::rootName).toList();
        String name = treePlan instanceof CyclicPHierarchicalPlan cyclic
                ? "bags (worst-case-optimal delta joins) + Boolean join of "
                        + cyclic.bags().size() + " bags + payload recovery (sink)"
                : treePlan instanceof QHierarchicalPlan
                        ? "q-tree join of the root views + payload recovery (sink)"
                        : "Boolean join + payload recovery (sink)";
        String straight = directNames.isEmpty()
                ? ""
                : "; " + String.join(", ", directNames) + " straight from the ingest (no state below the root)";
        this.sink = new Operator(name, sinkParallelism, partitioning(schemas, roots) + straight + BROADCAST);
    }

    /**
     * The key route and one keyed operator per key stage of {@code plan}, in the order rows pass them;
     * none where the plan has no stage (its keys are trusted). The route reads {@code routeInput} (null:
     * the sources).
     */
    private static List<Operator> keyOperators(KeyedPlan plan, int parallelism, String routeInput) {
        List<Operator> out = new ArrayList<>();
        if (plan.stages().isEmpty()) {
            return List.of();
        }
        out.add(new Operator(
                "key route " + plan.query().name() + " (validate, send rows to their key stages)",
                parallelism,
                routeInput != null ? routeInput : "forward from a source at the same parallelism, else rebalance"));
        for (KeyStage stage : plan.stages()) {
            ConjunctiveQuery.Key k = stage.key();
            List<String> uses = new ArrayList<>();
            for (Enrichment e : plan.enrichments()) {
                for (KeyLookup l : e.lookups()) {
                    if (l.relation().equals(k.relation()) && l.copy() == stage.copy()) {
                        String what = String.join(",", l.added());
                        if (l.payload()) {
                            what += what.isEmpty() ? "the payload" : " and the payload";
                        }
                        uses.add(what + " for " + plan.query().body().get(e.atom()));
                    }
                }
            }
            String text = plan.query().keyText(k);
            String does = stage.copy() > 0
                    ? "the rows of " + plan.stageName(new KeyStage(k, stage.copy() - 1))
                    : plan.absorbs(k.relation()) ? "check the key, keep the absorbed rows" : "check the key";
            out.add(new Operator(
                    "key stage " + plan.stageName(stage) + " (" + does
                            + (uses.isEmpty() ? "" : "; look up " + String.join(", ", uses)) + ")",
                    parallelism,
                    "hash(" + text.substring(k.relation().length() + 1, text.length() - 1) + ")"));
        }
        return List.copyOf(out);
    }

    private static String subject(ConjunctiveQuery q) {
        return q.name() + "(" + String.join(",", q.head()) + ")";
    }

    /** The layout of {@code plan}'s job with every operator at (up to) {@code parallelism}, all root views equally fast. */
    public static FlinkJobLayout of(MaintenancePlan plan, int parallelism) {
        return of(plan, parallelism, RelationRates.none());
    }

    /**
     * The layout of {@code plan}'s job with every operator at (up to) {@code parallelism}, the sink's
     * HyperCube cells (if it has them) sized for the relations' insert {@code rates}.
     *
     * @throws IllegalArgumentException if the parallelism is below 1, or the rates do not name exactly
     *     the query's relations
     */
    public static FlinkJobLayout of(MaintenancePlan plan, int parallelism, RelationRates rates) {
        return of(plan, parallelism, rates, true);
    }

    /**
     * As {@link #of(MaintenancePlan, int, RelationRates)}; {@code rowCheck} false: a plan with deletes
     * runs without the row check ({@link IvmOptions#withRowCheck}).
     */
    public static FlinkJobLayout of(MaintenancePlan plan, int parallelism, RelationRates rates, boolean rowCheck) {
        if (parallelism < 1) {
            throw new IllegalArgumentException("parallelism must be at least 1, got " + parallelism);
        }
        return new FlinkJobLayout(plan, parallelism, rates, rowCheck, 0, Windows.NONE);
    }

    /**
     * This layout for a query whose relations have {@code windows} ({@link IvmOptions#withWindow}): a
     * window variable in every part of the result keys the sink too, so that a closed window's state
     * goes whole.
     */
    public FlinkJobLayout withWindows(Windows windows) {
        return windows.equals(this.windows)
                ? this
                : new FlinkJobLayout(plan, parallelism, rates, checksRows, stateTtlMillis, windows);
    }

    /** This layout with the state TTL of {@code options} ({@link IvmOptions#withStateTtl}), which explain says. */
    public FlinkJobLayout withStateTtl(IvmOptions options) {
        long millis = options.stateTtlMillis();
        return millis == stateTtlMillis
                ? this
                : new FlinkJobLayout(plan, parallelism, rates, checksRows, millis, windows);
    }

    /**
     * The line of {@code explain} that says the state TTL, or null without one: per-entry expiry in the
     * operators before the sink, per key in the sink.
     */
    private String stateTtlLine() {
        if (stateTtlMillis == 0) {
            return null;
        }
        return "state TTL " + durationText(stateTtlMillis) + ": entries of views, key stages and row checks expire "
                + durationText(stateTtlMillis) + " after their last write; a sink key's whole state goes "
                + durationText(stateTtlMillis) + " to 1.5 times that after its last update (results may change)";
    }

    /** {@code millis} as Flink's configuration writes a duration: in the largest unit that divides it. */
    static String durationText(long millis) {
        if (millis % 3_600_000 == 0) {
            return millis / 3_600_000 + " h";
        }
        if (millis % 60_000 == 0) {
            return millis / 60_000 + " min";
        }
        return millis % 1000 == 0 ? millis / 1000 + " s" : millis + " ms";
    }

    private String partitioning(List<List<String>> schemas, List<String> names) {
        if (hashVariable != null) {
            String by = String.join(",", sinkKey());
            return "hash(" + by + ")"
                    + (rates.isEmpty() ? "" : " (relation rates not needed: every part has " + by + ")");
        }
        StringBuilder sb = new StringBuilder("shares ")
                .append(shares.describe())
                .append(" (")
                .append(shares.cells())
                .append(shares.cells() == 1 ? " cell" : " cells")
                .append("; replication: ");
        for (int i = 0; i < schemas.size(); i++) {
            sb.append(i == 0 ? "" : ", ").append(names.get(i)).append(' ').append(shares.replication(schemas.get(i)));
        }
        sb.append(
                rates.isEmpty()
                        ? ""
                        : "; shares for the relation rates " + rates.describe() + ": a cell expects "
                                + String.format(Locale.ROOT, "%.1f%%", 100 * loadPerCell(schemas))
                                + " of the updates");
        sb.append(")");
        if (shares.cells() == 1 && parallelism > 1) {
            sb.append(
                    maintained.query().head().isEmpty()
                            ? "; one cell: the query has no free variables to partition its result by"
                            : "; one cell: no free variable splits every part of the result");
        }
        return sb.toString();
    }

    /** The share of all root updates (or fallback deltas) one cell expects: Σ w_r · replication_r / cells / Σ w_r. */
    private double loadPerCell(List<List<String>> schemas) {
        double all = 0;
        double perCell = 0;
        for (int i = 0; i < schemas.size(); i++) {
            all += weights[i];
            perCell += weights[i] * shares.replication(schemas.get(i)) / shares.cells();
        }
        return perCell / all;
    }

    /** The operator name of view tree {@code t}: its root view and the stateful views it holds. */
    static String treeName(ViewTreePlan plan, ViewTree t) {
        List<String> views = new ArrayList<>();
        for (ViewNode n : plan.statefulNodes()) {
            if (n.tree() == t.index()) {
                views.add("V[" + String.join(",", n.schema()) + "]");
            }
        }
        return "tree " + t.index() + " " + plan.rootName(t)
                + (views.isEmpty() ? "" : " (views " + String.join(", ", views) + ")");
    }

    /** The variables tree {@code t}'s operator is keyed by: its root schema, or its top bound variable. */
    static List<String> treeKey(ViewTreePlan plan, ViewTree t) {
        if (!t.schema().isEmpty()) {
            return t.schema();
        }
        return t.rootNode() < 0
                ? List.of()
                : List.of(plan.viewNodes().get(t.rootNode()).variable());
    }

    public MaintenancePlan plan() {
        return plan;
    }

    /** The plan the ingest and the operators after it run: {@link #plan()}, or a {@link KeyedPlan}'s closed plan. */
    public MaintenancePlan maintained() {
        return maintained;
    }

    /** The job's parallelism: of the ingest and the tree operators. */
    public int parallelism() {
        return parallelism;
    }

    public Operator ingest() {
        return ingest;
    }

    /** The row check of a plan whose inputs have deletes (keyed by row, in front of the ingest), or null. */
    public Operator rowCheck() {
        return rowCheck;
    }

    /**
     * The relations with deletes whose deletes the fallback checks itself, against the atoms' relations
     * (a row an atom matches is that atom's tuple) and the rows no atom matches, which it keeps for that;
     * they need no row check in front of the ingest.
     */
    public List<String> fallbackChecks() {
        return fallbackChecks;
    }

    /** The view tree operators, in tree order (none for the fallback, nor for the {@link #directTrees()}). */
    public List<Operator> trees() {
        return trees;
    }

    /** The operator of view tree {@code tree}, or null when the ingest sends its root updates straight to the sink. */
    public Operator treeOperator(int tree) {
        return treeOperators.get(tree);
    }

    /** The view trees without an operator: no state below the root, so their root updates go from the ingest to the sink. */
    public List<Integer> directTrees() {
        return directTrees;
    }

    /**
     * The most shuffles an insert crosses: two through a tree operator, else one; and one per key
     * stage in front of the ingest, which a row may pass all of; one more for the row check of a changelog.
     */
    public int shufflesPerInsert() {
        return (trees.isEmpty() ? 1 : 2) + Math.max(0, keyOperators.size() - 1) + (rowCheck == null ? 0 : 1);
    }

    /** The operator that holds the result: the border sink, or the fallback. */
    public Operator sink() {
        return sink;
    }

    /** The sink's (or fallback's) HyperCube cells, or null when it is keyed by {@link #hashVariable()}. */
    public Shares shares() {
        return shares;
    }

    /** The relation rates the sink's cells were sized for (none: every root view equally fast). */
    public RelationRates rates() {
        return rates;
    }

    /** The free variable every part of the result has, which the sink (or fallback) is keyed by; or null. */
    public String hashVariable() {
        return hashVariable;
    }

    /**
     * The window variable that keys the sink (or fallback) first ({@link #sinkKey()}), so that its
     * state of a window goes when the window closes; or null.
     */
    public String windowVariable() {
        return windowVariable;
    }

    /**
     * The variables whose values key the sink (or fallback), in key order: the {@link #hashVariable()};
     * or the {@link #windowVariable()} and the first other variable of every part (if any); empty when
     * it is keyed by HyperCube cells.
     */
    public List<String> sinkKey() {
        return sinkKey;
    }

    /** For a {@link KeyedPlan}: the key route and the key stages, in the order rows pass them (else empty). */
    public List<Operator> keyOperators() {
        return keyOperators;
    }

    /** The map that projects the results to the query's head, for a {@link KeyedPlan} whose head gained variables; else null. */
    public Operator projection() {
        return projection;
    }

    /**
     * Every operator, from the key route (if any; under deletes after the row check) and the ingest to
     * the sink (and the projection after it).
     */
    public List<Operator> operators() {
        List<Operator> all = new ArrayList<>();
        boolean checkFirst = rowCheck != null && !keyOperators.isEmpty();
        if (checkFirst) {
            all.add(rowCheck);
        }
        all.addAll(keyOperators);
        if (rowCheck != null && !checkFirst) {
            all.add(rowCheck);
        }
        all.add(ingest);
        all.addAll(trees);
        all.add(sink);
        if (projection != null) {
            all.add(projection);
        }
        return all;
    }

    /**
     * Per atom of the query, the network exchanges one of its rows crosses from its input to the result,
     * in order: {@code lineitem(ok,ck2): 1 exchange (sink)}. The key route, and the ingest of a plan
     * without key stages, run in the input's chain and cross none; with key stages the ingest takes the
     * union of route and stages, one exchange more. A row of an absorbed atom stops at its key stage,
     * where the rows that look it up take it along.
     */
    public List<String> exchangesPerRow() {
        KeyedPlan keyed = plan instanceof KeyedPlan k ? k : null;
        ViewTreePlan treePlan = maintained instanceof ViewTreePlan v ? v : null;
        List<String> out = new ArrayList<>();
        for (Atom a : plan.query().body()) {
            List<String> path = new ArrayList<>();
            if (rowCheck != null) {
                path.add("row check");
            }
            int closedAtom = a.index();
            if (keyed != null) {
                List<Integer> stages = new ArrayList<>();
                // A row stored at its relation's stage goes on to the stage's copies, which hold it too.
                for (int copy = 0; keyed.stage(a.relation(), copy) >= 0; copy++) {
                    stages.add(keyed.stage(a.relation(), copy));
                }
                Enrichment e = keyed.enrichment(a.index());
                if (e != null && keyed.absorption(a.index()) == null) {
                    for (KeyLookup l : e.lookups()) {
                        int s = keyed.stage(l.relation(), l.copy());
                        if (s >= 0 && !stages.contains(s)) {
                            stages.add(s);
                        }
                    }
                }
                Collections.sort(stages);
                for (int s : stages) {
                    path.add("key stage " + keyed.stageName(keyed.stages().get(s)));
                }
                closedAtom = keyed.closedAtom(a.index());
                if (closedAtom >= 0 && !keyOperators.isEmpty()) {
                    path.add("ingest");
                }
            }
            if (closedAtom >= 0) {
                if (treePlan != null) {
                    for (ViewTree t : treePlan.viewTrees()) {
                        if (t.atoms().contains(closedAtom) && treeOperators.get(t.index()) != null) {
                            path.add("tree " + t.index());
                        }
                    }
                }
                path.add("sink");
            }
            out.add(a + ": " + path.size() + (path.size() == 1 ? " exchange" : " exchanges")
                    + (closedAtom < 0 ? " (absorbed: kept at its key stage)" : "")
                    + (path.isEmpty() ? "" : " (" + String.join(", ", path) + ")"));
        }
        return out;
    }

    /**
     * The section {@code Flink job:} of {@code explain}: one line per operator, then the exchanges a row
     * of each atom crosses ({@link #exchangesPerRow()}).
     */
    public String explain() {
        StringBuilder sb = new StringBuilder("Flink job:\n");
        for (Operator o : operators()) {
            sb.append("  ")
                    .append(o.name())
                    .append(": parallelism ")
                    .append(o.parallelism())
                    .append(", ")
                    .append(o.input())
                    .append('\n');
        }
        String ttl = stateTtlLine();
        if (ttl != null) {
            sb.append("  ").append(ttl).append('\n');
        }
        sb.append("  exchanges per row:\n");
        for (String line : exchangesPerRow()) {
            sb.append("    ").append(line).append('\n');
        }
        return sb.toString();
    }
}
