package io.flinkivm.core.plan;

import io.flinkivm.core.analysis.Classification;
import io.flinkivm.core.analysis.Gyo;
import io.flinkivm.core.analysis.QueryClassifier;
import io.flinkivm.core.analysis.TreeDecomposition;
import io.flinkivm.core.analysis.TreeDecompositions;
import io.flinkivm.core.query.Atom;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.core.semiring.SemiringProperty;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.flink.annotation.PublicEvolving;

/**
 * Turns a query, a semiring and its {@link Inputs} into a {@link MaintenancePlan}: the paper's plan
 * (Algorithms 1 and 2, indicator projections, the Boolean join above the border) for p-hierarchical
 * queries over positive semirings and insert-only inputs, the {@link QHierarchicalPlan} for
 * q-hierarchical queries under deletes (over a ring), and first-order delta joins for everything else. Above the border the plan joins the
 * root views along a join tree when their join is α-acyclic ({@link PHierarchicalPlan}), and
 * along the bags of a minimum-width tree decomposition otherwise ({@link CyclicPHierarchicalPlan},
 * within {@link TreeDecompositions}' size limits; beyond them the fallback, with the reason).
 *
 * <p>A query with keys whose own plan is not the α-acyclic one may get a {@link KeyedPlan}: the first
 * closure under the keys ({@link KeyChase}: the head's, then with the atoms', then the full one) that
 * has the α-acyclic p-hierarchical plan, else the first such of the absorbed query (key tables folded
 * into the atoms that look them up) and its closures. In order of preference: the query's α-acyclic
 * plan (relying on no key), a closure's, an absorbed query's, the query's cyclic plan, the fallback on
 * the query.
 */
@PublicEvolving
public final class Planner {

    /** Upper bounds on query size; beyond them planning is refused before any job starts. */
    public static final int MAX_ATOMS = 64;

    public static final int MAX_VARIABLES = 256;

    /** Which plan to build. */
    public enum Strategy {
        /** The p-hierarchical plan where it applies, otherwise the fallback. */
        AUTO,
        /**
         * The p-hierarchical plan (acyclic or cyclic above the border); refuse with
         * {@link UnsupportedPlanException} where it does not apply.
         */
        P_HIERARCHICAL,
        /** Always the fallback delta-join plan (e.g. to compare against). */
        FALLBACK
    }

    private Planner() {}

    /** Plans {@code query} over {@code semiring} with {@link Strategy#AUTO}, every input insert-only. */
    public static MaintenancePlan plan(ConjunctiveQuery query, Semiring<?> semiring) {
        return plan(query, semiring, Strategy.AUTO, Inputs.INSERT_ONLY);
    }

    /** Plans {@code query} over {@code semiring} with the given strategy, every input insert-only. */
    public static MaintenancePlan plan(ConjunctiveQuery query, Semiring<?> semiring, Strategy strategy) {
        return plan(query, semiring, strategy, Inputs.INSERT_ONLY);
    }

    /**
     * Plans {@code query} over {@code semiring} for {@code inputs}: where some relation receives deletes
     * and updates, the semiring must be a ring, q-hierarchical queries get the {@link QHierarchicalPlan}
     * and every other query the fallback over the ring, with the relations that forced it named.
     */
    public static MaintenancePlan plan(ConjunctiveQuery query, Semiring<?> semiring, Strategy strategy, Inputs inputs) {
        return plan(query, semiring.name(), semiring.properties(), strategy, inputs);
    }

    /** Plans {@code query} for a semiring known by name and declared properties, every input insert-only. */
    public static MaintenancePlan plan(
            ConjunctiveQuery query, String semiring, Set<SemiringProperty> properties, Strategy strategy) {
        return plan(query, semiring, properties, strategy, Inputs.INSERT_ONLY);
    }

    /**
     * Plans {@code query} for a semiring known by name and declared properties, and for {@code inputs}.
     *
     * @throws UnsupportedPlanException if the query is too large, a relation with deletes meets a
     *     semiring that is not a ring, or {@link Strategy#P_HIERARCHICAL} was asked for where it does
     *     not apply
     * @throws IllegalArgumentException if {@code inputs} names a relation the query does not read
     */
    public static MaintenancePlan plan(
            ConjunctiveQuery query,
            String semiring,
            Set<SemiringProperty> properties,
            Strategy strategy,
            Inputs inputs) {
        checkPlannable(query, semiring, properties);
        inputs.check(query);
        if (!inputs.isInsertOnly() && !properties.contains(SemiringProperty.RING)) {
            throw new UnsupportedPlanException(String.join(", ", inputs.changelog())
                    + (inputs.changelog().size() == 1 ? " receives" : " receive")
                    + " deletes and updates, which need a ring (payloads with additive inverses): semiring " + semiring
                    + " is not one. Use its ring: integer for natural, covariance-ring:m for covariance:m, the"
                    + " product ring for the SQL aggregates' product (Semirings.ringFor)");
        }
        Classification classification = QueryClassifier.classify(query);
        return inputs.isInsertOnly()
                ? insertOnly(query, semiring, properties, strategy, classification)
                : withDeletes(query, semiring, properties, strategy, classification, inputs);
    }

    /**
     * Insert-only inputs: the paper's α-acyclic plan, a closure's under keys, the cyclic plan, the
     * fallback, in this order (as before deletes existed: a semiring that is not positive, a ring
     * included, gets the fallback here, which the Flink job runs too).
     */
    private static MaintenancePlan insertOnly(
            ConjunctiveQuery query,
            String semiring,
            Set<SemiringProperty> properties,
            Strategy strategy,
            Classification classification) {
        Attempt attempt = attempt(query, semiring, properties, classification, strategy);
        if (attempt instanceof Attempt.Planned planned && planned.plan() instanceof PHierarchicalPlan) {
            return planned.plan();
        }
        List<String> keyReasons = new ArrayList<>();
        if (!query.keys().isEmpty()
                && strategy != Strategy.FALLBACK
                && properties.contains(SemiringProperty.POSITIVE)) {
            KeyedPlan keyed = keyed(query, semiring, properties, classification, keyReasons);
            if (keyed != null) {
                return keyed;
            }
        }
        if (attempt instanceof Attempt.Planned planned) {
            return planned.plan();
        }
        List<String> reasons = new ArrayList<>(((Attempt.Refused) attempt).reasons());
        reasons.addAll(keyReasons);
        if (strategy == Strategy.P_HIERARCHICAL) {
            throw new UnsupportedPlanException("the p-hierarchical plan does not apply to " + query + " over "
                    + semiring + ": " + String.join("; ", reasons) + ". Use the fallback (delta-join) plan instead.");
        }
        return fallback(query, semiring, properties, classification, reasons, Inputs.INSERT_ONLY);
    }

    /**
     * Some input has deletes (the semiring is a ring): the q-hierarchical plan where the query is
     * q-hierarchical, else the fallback, whose reasons name the relations with deletes and cite the
     * dichotomy under deletes.
     */
    private static MaintenancePlan withDeletes(
            ConjunctiveQuery query,
            String semiring,
            Set<SemiringProperty> properties,
            Strategy strategy,
            Classification classification,
            Inputs inputs) {
        List<String> reasons = new ArrayList<>();
        if (strategy == Strategy.FALLBACK) {
            reasons.add("the fallback plan was requested");
        } else if (classification.qHierarchical().holds()) {
            return qHierarchical(query, semiring, properties, classification, inputs);
        } else {
            reasons.add(deletesReason(classification, inputs));
            if (!query.keys().isEmpty()) {
                KeyedPlan keyed = keyedWithDeletes(query, semiring, properties, classification, inputs, reasons);
                if (keyed != null) {
                    return keyed;
                }
            }
        }
        if (strategy == Strategy.P_HIERARCHICAL) {
            throw new UnsupportedPlanException(
                    "no view-tree plan applies to " + query + " over " + semiring + " under deletes: "
                            + String.join("; ", reasons) + ". Use the fallback (delta-join) plan instead.");
        }
        return fallback(query, semiring, properties, classification, reasons, inputs);
    }

    /**
     * Under deletes: the plan of the first closure of {@code query} under its keys, else of its absorbed
     * query or a closure of it, that is q-hierarchical; or null, with why none is in {@code reasons}.
     */
    private static KeyedPlan keyedWithDeletes(
            ConjunctiveQuery query,
            String semiring,
            Set<SemiringProperty> properties,
            Classification classification,
            Inputs inputs,
            List<String> reasons) {
        List<KeyChase.Candidate> candidates = new ArrayList<>(KeyChase.candidates(query));
        candidates.addAll(KeyChase.absorbed(query));
        String why = null;
        for (KeyChase.Candidate c : candidates) {
            if (c.problem() != null) {
                why = c.name() + ", " + c.closed() + ", cannot run: " + c.problem();
                continue;
            }
            Classification closed = QueryClassifier.classify(c.closed());
            if (!closed.qHierarchical().holds()) {
                why = c.name() + ", " + c.closed() + ", is not q-hierarchical either: "
                        + closed.qHierarchical().witness();
                continue;
            }
            Inputs closedInputs = c.closedInputs(query, inputs);
            return new KeyedPlan(
                    query,
                    classification,
                    c.name(),
                    c.relied(),
                    c.stages(),
                    false,
                    c.addedHead(),
                    c.headLookups(),
                    c.absorptions(),
                    c.enrichments(),
                    qHierarchical(c.closed(), semiring, properties, closed, closedInputs),
                    inputs);
        }
        reasons.add(
                why == null
                        ? "the keys do not help: they determine no variable that the head or an atom lacks, and no key"
                                + " table can be absorbed"
                        : "the keys do not help: " + why);
        return null;
    }

    /** The dichotomy under inserts and deletes, for the fallback's reasons. */
    static final String DELETE_DICHOTOMY = "under inserts and deletes, exactly the q-hierarchical queries have O(1)"
            + " updates and constant-delay enumeration (Berkholz, Keppeler, Schweikardt, PODS 2017): unless the OMv"
            + " conjecture fails, no algorithm maintains a query without self-joins that is not q-hierarchical"
            + " with O(N^(1/2-γ)) update time and O(N^(1/2-γ)) delay";

    /** Why a query that is not q-hierarchical takes the fallback when {@code inputs} have deletes. */
    private static String deletesReason(Classification classification, Inputs inputs) {
        String names = String.join(", ", inputs.changelog());
        String relations = names + (inputs.changelog().size() == 1 ? " receives" : " receive") + " deletes and updates";
        String notQ = "not q-hierarchical (" + classification.qHierarchical().witness() + ")";
        if (classification.pHierarchical().holds()) {
            return relations + ", and " + classification.subject() + " is p-hierarchical but " + notQ
                    + ". With every input insert-only it would get the p-hierarchical plan; the deletes of " + names
                    + " force the fallback, since the Boolean join above that plan's border never lets a root"
                    + " tuple go. " + capitalized(DELETE_DICHOTOMY);
        }
        return relations + ", and " + classification.subject() + " is " + notQ + ", nor p-hierarchical. "
                + capitalized(DELETE_DICHOTOMY);
    }

    private static String capitalized(String s) {
        return Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }

    /** The q-hierarchical plan of {@code query}: the view trees, and the q-tree of their root schemas. */
    private static QHierarchicalPlan qHierarchical(
            ConjunctiveQuery query,
            String semiring,
            Set<SemiringProperty> properties,
            Classification classification,
            Inputs inputs) {
        ViewTreeForest forest = ViewTreeRewrite.rewrite(query, VariableOrders.create(query));
        return new QHierarchicalPlan(
                query, semiring, properties, classification, forest, qTree(query.head(), forest.trees()), inputs);
    }

    /**
     * The q-tree over the root schemas of a q-hierarchical query, which nest: with T(X) the trees whose
     * schema has X, a variable's ancestors are the variables Y with T(Y) ⊇ T(X) that come before it when
     * the variables are ordered by |T| (decreasing) and head position; a tree sits at the last of its
     * variables in that order (at the root if it has none). The plan's validation checks that each
     * schema is then exactly a root-to-node path.
     */
    static List<QTreeNode> qTree(List<String> head, List<ViewTree> trees) {
        List<String> order = new ArrayList<>();
        List<Set<Integer>> treesOf = new ArrayList<>();
        for (String v : head) {
            Set<Integer> t = new java.util.TreeSet<>();
            for (ViewTree tree : trees) {
                if (tree.schema().contains(v)) {
                    t.add(tree.index());
                }
            }
            order.add(v);
            treesOf.add(t);
        }
        Integer[] byDepth = new Integer[order.size()];
        for (int i = 0; i < byDepth.length; i++) {
            byDepth[i] = i;
        }
        Arrays.sort(
                byDepth,
                (a, b) -> treesOf.get(a).size() != treesOf.get(b).size()
                        ? treesOf.get(b).size() - treesOf.get(a).size()
                        : a - b);
        // Node ids: 0 the root, then the variables in that order (a parent comes before its children).
        int n = byDepth.length;
        int[] parent = new int[n + 1];
        parent[0] = -1;
        for (int i = 0; i < n; i++) {
            parent[i + 1] = 0;
            Set<Integer> mine = treesOf.get(byDepth[i]);
            for (int j = i - 1; j >= 0; j--) {
                if (treesOf.get(byDepth[j]).containsAll(mine)) {
                    parent[i + 1] = j + 1;
                    break;
                }
            }
        }
        List<List<Integer>> sitting = new ArrayList<>();
        List<List<Integer>> children = new ArrayList<>();
        for (int i = 0; i <= n; i++) {
            sitting.add(new ArrayList<>());
            children.add(new ArrayList<>());
        }
        for (int i = 1; i <= n; i++) {
            children.get(parent[i]).add(i);
        }
        for (ViewTree t : trees) {
            int at = 0;
            for (int i = 0; i < n; i++) {
                if (t.schema().contains(order.get(byDepth[i]))) {
                    at = i + 1;
                }
            }
            sitting.get(at).add(t.index());
        }
        List<QTreeNode> out = new ArrayList<>();
        out.add(new QTreeNode(0, null, -1, List.of(), sitting.get(0), children.get(0)));
        for (int i = 1; i <= n; i++) {
            List<String> path = new ArrayList<>(out.get(parent[i]).path());
            path.add(order.get(byDepth[i - 1]));
            out.add(new QTreeNode(i, order.get(byDepth[i - 1]), parent[i], path, sitting.get(i), children.get(i)));
        }
        return out;
    }

    /**
     * The plan of the first closure of {@code query} under its keys ({@link KeyChase#candidates}) that is
     * α-acyclic p-hierarchical, else of the first absorbed query or closure of it ({@link
     * KeyChase#absorbed}); or null, with why none is in {@code reasons}.
     */
    private static KeyedPlan keyed(
            ConjunctiveQuery query,
            String semiring,
            Set<SemiringProperty> properties,
            Classification classification,
            List<String> reasons) {
        String[] why = new String[1];
        KeyedPlan closure = keyed(query, semiring, properties, classification, KeyChase.candidates(query), why);
        if (closure != null) {
            return closure;
        }
        String closures = why[0] == null
                ? "the keys do not help: they determine no variable that the head or an atom lacks"
                : "the keys do not help: " + why[0];
        why[0] = null;
        KeyedPlan absorbed = keyed(query, semiring, properties, classification, KeyChase.absorbed(query), why);
        if (absorbed != null) {
            return absorbed;
        }
        reasons.add(closures + (why[0] == null ? "" : "; nor does absorbing the key tables: " + why[0]));
        return null;
    }

    /** The plan of the first of {@code candidates} that is α-acyclic p-hierarchical, or null with the last reason in {@code why[0]}. */
    private static KeyedPlan keyed(
            ConjunctiveQuery query,
            String semiring,
            Set<SemiringProperty> properties,
            Classification classification,
            List<KeyChase.Candidate> candidates,
            String[] why) {
        for (KeyChase.Candidate c : candidates) {
            if (c.problem() != null) {
                why[0] = c.name() + ", " + c.closed() + ", cannot run: " + c.problem();
                continue;
            }
            Classification closedClassification = QueryClassifier.classify(c.closed());
            Attempt a = attempt(c.closed(), semiring, properties, closedClassification, Strategy.AUTO);
            if (a instanceof Attempt.Planned planned && planned.plan() instanceof PHierarchicalPlan closed) {
                return new KeyedPlan(
                        query,
                        classification,
                        c.name(),
                        c.relied(),
                        c.stages(),
                        false,
                        c.addedHead(),
                        c.headLookups(),
                        c.absorptions(),
                        c.enrichments(),
                        closed,
                        Inputs.INSERT_ONLY);
            }
            why[0] = c.name() + ", " + c.closed() + ", "
                    + (!closedClassification.pHierarchical().holds()
                            ? "is not p-hierarchical either: "
                                    + closedClassification.pHierarchical().witness()
                            : a instanceof Attempt.Refused refused
                                    ? "has no O(1) plan either: " + String.join("; ", refused.reasons())
                                    : "is p-hierarchical, but the join of its root views is cyclic");
        }
        return null;
    }

    /**
     * The fallback plan for {@code query} over {@code semiring}: {@link #plan} with
     * {@link Strategy#FALLBACK}, typed.
     *
     * @throws UnsupportedPlanException if the query is too large
     */
    public static FallbackPlan fallback(ConjunctiveQuery query, Semiring<?> semiring) {
        checkPlannable(query, semiring.name(), semiring.properties());
        Classification classification = QueryClassifier.classify(query);
        return fallback(
                query,
                semiring.name(),
                semiring.properties(),
                classification,
                refusals(semiring.name(), semiring.properties(), classification, Strategy.FALLBACK),
                Inputs.INSERT_ONLY);
    }

    private static void checkPlannable(ConjunctiveQuery query, String semiring, Set<SemiringProperty> properties) {
        if (query.body().size() > MAX_ATOMS) {
            throw new UnsupportedPlanException("query too large to plan: "
                    + query.body().size() + " atoms, at most " + MAX_ATOMS + " are supported");
        }
        if (query.variables().size() > MAX_VARIABLES) {
            throw new UnsupportedPlanException("query too large to plan: "
                    + query.variables().size() + " variables, at most " + MAX_VARIABLES + " are supported");
        }
        if (!properties.contains(SemiringProperty.COMMUTATIVE)) {
            throw new UnsupportedPlanException(
                    "semiring " + semiring + " does not declare COMMUTATIVE; flink-ivm needs commutative semirings");
        }
    }

    /** The outcome of trying the paper's plan: the plan, or why it does not apply. */
    sealed interface Attempt {
        /** The paper's plan applies. */
        record Planned(ViewTreePlan plan) implements Attempt {}

        /** It does not, for these reasons (at least one). */
        record Refused(List<String> reasons) implements Attempt {
            public Refused {
                reasons = List.copyOf(reasons);
                if (reasons.isEmpty()) {
                    throw new IllegalArgumentException("a refusal needs a reason");
                }
            }
        }
    }

    /**
     * Tries the paper's plan, in its steps: Algorithm 1 ({@link VariableOrders}), Algorithm 2 and the
     * routes ({@link ViewTreeRewrite}) below the border; above it the Boolean join tree of the root
     * views if their join is α-acyclic ({@link #booleanJoinTree}), else the bags of a minimum-width
     * tree decomposition ({@link #bags}), or a refusal if the decomposition search is too large.
     */
    static Attempt attempt(
            ConjunctiveQuery query,
            String semiring,
            Set<SemiringProperty> properties,
            Classification classification,
            Strategy strategy) {
        List<String> reasons = refusals(semiring, properties, classification, strategy);
        if (!reasons.isEmpty()) {
            return new Attempt.Refused(reasons);
        }
        ViewTreeForest forest = ViewTreeRewrite.rewrite(query, VariableOrders.create(query));
        List<List<String>> schemas = new ArrayList<>();
        for (ViewTree t : forest.trees()) {
            schemas.add(t.schema());
        }
        Gyo.Result gyo = Gyo.reduce(schemas);
        if (gyo.acyclic()) {
            List<JoinTreeNode> joinTree = booleanJoinTree(schemas, gyo.parent());
            return new Attempt.Planned(new PHierarchicalPlan(
                    query, semiring, properties, classification, forest, joinTree, preorder(joinTree)));
        }
        String tooLarge = TreeDecompositions.limitViolation(schemas);
        if (tooLarge != null) {
            List<String> left = new ArrayList<>();
            for (int e : gyo.residual()) {
                left.add("V[" + String.join(",", schemas.get(e)) + "]");
            }
            return new Attempt.Refused(List.of("the Boolean join of the root views is cyclic (GYO leaves "
                    + String.join(", ", left) + ") and too large for the tree decomposition search: " + tooLarge));
        }
        TreeDecomposition td = TreeDecompositions.optimal(schemas);
        return new Attempt.Planned(new CyclicPHierarchicalPlan(
                query,
                semiring,
                properties,
                classification,
                forest,
                bags(query.head(), forest.trees(), td),
                td.width()));
    }

    /** Why the paper's plan does not apply, before trying it: the strategy, the query's class, the semiring. */
    private static List<String> refusals(
            String semiring, Set<SemiringProperty> properties, Classification classification, Strategy strategy) {
        List<String> reasons = new ArrayList<>();
        if (strategy == Strategy.FALLBACK) {
            reasons.add("the fallback plan was requested");
        }
        if (!classification.pHierarchical().holds()) {
            reasons.add("not p-hierarchical: " + classification.pHierarchical().witness()
                    + ". Thm. 2: unless the OMv conjecture fails, no algorithm maintains a non-p-hierarchical query"
                    + " without self-joins with O(N^(1/2-γ)) amortized update time and O(N^(1/2-γ)) delay");
        }
        if (!properties.contains(SemiringProperty.POSITIVE)) {
            reasons.add("semiring " + semiring + " is not positive (a+b=0 or a·b=0 with non-zero operands is"
                    + " possible), so the Boolean border could drop live tuples");
        }
        return reasons;
    }

    private static FallbackPlan fallback(
            ConjunctiveQuery query,
            String semiring,
            Set<SemiringProperty> properties,
            Classification classification,
            List<String> reasons,
            Inputs inputs) {
        return new FallbackPlan(query, semiring, properties, classification, reasons, deltaJoins(query), inputs);
    }

    /**
     * The Boolean join tree over the root schemas, from a GYO join forest ({@code gyoParent}, -1 for
     * roots): re-rooted at the widest schema (lowest index on ties) for a readable plan, each node
     * keyed by the variables it shares with its parent (in its own schema's order).
     */
    static List<JoinTreeNode> booleanJoinTree(List<List<String>> schemas, int[] gyoParent) {
        int[] parent = rerootAtWidest(gyoParent, schemas);
        List<JoinTreeNode> joinTree = new ArrayList<>();
        for (int i = 0; i < schemas.size(); i++) {
            List<String> key = new ArrayList<>();
            if (parent[i] >= 0) {
                for (String v : schemas.get(i)) {
                    if (schemas.get(parent[i]).contains(v)) {
                        key.add(v);
                    }
                }
            }
            joinTree.add(new JoinTreeNode(i, parent[i], key));
        }
        return joinTree;
    }

    private static int[] rerootAtWidest(int[] parent, List<List<String>> schemas) {
        int n = parent.length;
        int root = 0;
        for (int i = 1; i < n; i++) {
            if (schemas.get(i).size() > schemas.get(root).size()) {
                root = i;
            }
        }
        int[] out = new int[n];
        Arrays.fill(out, -2);
        out[root] = -1;
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        queue.add(root);
        while (!queue.isEmpty()) {
            int u = queue.poll();
            for (int v = 0; v < n; v++) {
                boolean adjacent = parent[v] == u || parent[u] == v;
                if (adjacent && out[v] == -2) {
                    out[v] = u;
                    queue.add(v);
                }
            }
        }
        return out;
    }

    /** The nodes of a join tree in pre-order, root first. */
    static List<Integer> preorder(List<JoinTreeNode> joinTree) {
        List<Integer> out = new ArrayList<>();
        for (JoinTreeNode j : joinTree) {
            if (j.parent() < 0) {
                preorder(j.tree(), joinTree, out);
            }
        }
        return out;
    }

    private static void preorder(int node, List<JoinTreeNode> joinTree, List<Integer> out) {
        out.add(node);
        for (JoinTreeNode j : joinTree) {
            if (j.parent() == node) {
                preorder(j.tree(), joinTree, out);
            }
        }
    }

    /**
     * The cyclic plan's bags: those of the tree decomposition {@code td} of the root schemas, each
     * over its free variables in head order, joining the root views that meet it (a view with an
     * empty schema joins at the root bag).
     */
    static List<BagNode> bags(List<String> head, List<ViewTree> trees, TreeDecomposition td) {
        List<BagNode> bags = new ArrayList<>();
        for (int b = 0; b < td.bags().size(); b++) {
            List<String> variables = new ArrayList<>();
            for (String h : head) {
                if (td.bags().get(b).contains(h)) {
                    variables.add(h);
                }
            }
            List<String> key = new ArrayList<>();
            int parent = td.parent().get(b);
            for (String v : variables) {
                if (parent >= 0 && td.bags().get(parent).contains(v)) {
                    key.add(v);
                }
            }
            List<Integer> members = new ArrayList<>();
            for (ViewTree t : trees) {
                boolean meets = t.schema().isEmpty() && b == 0;
                for (String v : t.schema()) {
                    meets |= variables.contains(v);
                }
                if (meets) {
                    members.add(t.index());
                }
            }
            bags.add(new BagNode(b, variables, td.rho().get(b), parent, key, members));
        }
        return bags;
    }

    /** The fallback's delta joins: for each atom, the order in which the other atoms join its delta. */
    static List<List<DeltaJoinStep>> deltaJoins(ConjunctiveQuery query) {
        List<List<DeltaJoinStep>> deltaJoins = new ArrayList<>();
        for (Atom a : query.body()) {
            deltaJoins.add(deltaJoinOrder(query, a));
        }
        return deltaJoins;
    }

    /** Greedy join order: next the atom sharing most bound variables (lowest index on ties). */
    private static List<DeltaJoinStep> deltaJoinOrder(ConjunctiveQuery query, Atom start) {
        Set<String> bound = new LinkedHashSet<>(start.variables());
        List<Atom> remaining = new ArrayList<>(query.body());
        remaining.remove(start.index());
        List<DeltaJoinStep> steps = new ArrayList<>();
        while (!remaining.isEmpty()) {
            Atom best = null;
            int bestShared = -1;
            for (Atom b : remaining) {
                int shared = 0;
                for (String v : b.variables()) {
                    if (bound.contains(v)) {
                        shared++;
                    }
                }
                if (shared > bestShared) {
                    best = b;
                    bestShared = shared;
                }
            }
            List<String> key = new ArrayList<>();
            for (String v : best.variables()) {
                if (bound.contains(v)) {
                    key.add(v);
                }
            }
            steps.add(new DeltaJoinStep(best.index(), key));
            bound.addAll(best.variables());
            remaining.remove(best);
        }
        return steps;
    }
}
