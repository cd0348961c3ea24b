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
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns a query and a semiring into a {@link MaintenancePlan}: the paper's plan (Algorithms 1 and 2,
 * indicator projections, the Boolean join above the border) for p-hierarchical queries over positive
 * semirings, and first-order delta joins for everything else. Above the border the plan joins the
 * root views along a join tree when their join is α-acyclic ({@link PHierarchicalPlan}), and
 * along the bags of a minimum-width tree decomposition otherwise ({@link CyclicPHierarchicalPlan},
 * within {@link TreeDecompositions}' size limits; beyond them the fallback, with the reason).
 */
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

    private Planner() {
    }

    /** Plans {@code query} over {@code semiring} with {@link Strategy#AUTO}. */
    public static MaintenancePlan plan(ConjunctiveQuery query, Semiring<?> semiring) {
        return plan(query, semiring, Strategy.AUTO);
    }

    /** Plans {@code query} over {@code semiring} with the given strategy. */
    public static MaintenancePlan plan(ConjunctiveQuery query, Semiring<?> semiring, Strategy strategy) {
        return plan(query, semiring.name(), semiring.properties(), strategy);
    }

    /**
     * Plans {@code query} for a semiring known by name and declared properties.
     *
     * @throws UnsupportedPlanException if the query is too large, or {@link Strategy#P_HIERARCHICAL}
     *     was asked for where it does not apply
     */
    public static MaintenancePlan plan(ConjunctiveQuery query, String semiring, Set<SemiringProperty> properties,
            Strategy strategy) {
        checkPlannable(query, semiring, properties);
        Classification classification = QueryClassifier.classify(query);
        Attempt attempt = attempt(query, semiring, properties, classification, strategy);
        if (attempt instanceof Attempt.Planned planned) {
            return planned.plan();
        }
        List<String> reasons = ((Attempt.Refused) attempt).reasons();
        if (strategy == Strategy.P_HIERARCHICAL) {
            throw new UnsupportedPlanException("the p-hierarchical plan does not apply to " + query + " over "
                    + semiring + ": " + String.join("; ", reasons) + ". Use the fallback (delta-join) plan instead.");
        }
        return fallback(query, semiring, properties, classification, reasons);
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
        return fallback(query, semiring.name(), semiring.properties(), classification,
                refusals(semiring.name(), semiring.properties(), classification, Strategy.FALLBACK));
    }

    private static void checkPlannable(ConjunctiveQuery query, String semiring, Set<SemiringProperty> properties) {
        if (query.body().size() > MAX_ATOMS) {
            throw new UnsupportedPlanException("query too large to plan: " + query.body().size()
                    + " atoms, at most " + MAX_ATOMS + " are supported");
        }
        if (query.variables().size() > MAX_VARIABLES) {
            throw new UnsupportedPlanException("query too large to plan: " + query.variables().size()
                    + " variables, at most " + MAX_VARIABLES + " are supported");
        }
        if (!properties.contains(SemiringProperty.COMMUTATIVE)) {
            throw new UnsupportedPlanException("semiring " + semiring
                    + " does not declare COMMUTATIVE; flink-ivm needs commutative semirings");
        }
    }

    /** The outcome of trying the paper's plan: the plan, or why it does not apply. */
    sealed interface Attempt {
        /** The paper's plan applies. */
        record Planned(ViewTreePlan plan) implements Attempt {
        }

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

    /** Tries the paper's plan (acyclic or cyclic above the border). */
    static Attempt attempt(ConjunctiveQuery query, String semiring, Set<SemiringProperty> properties,
            Classification classification, Strategy strategy) {
        List<String> reasons = refusals(semiring, properties, classification, strategy);
        if (!reasons.isEmpty()) {
            return new Attempt.Refused(reasons);
        }
        return new Builder(query, semiring, properties, classification).build();
    }

    /** Why the paper's plan does not apply, before trying it: the strategy, the query's class, the semiring. */
    private static List<String> refusals(String semiring, Set<SemiringProperty> properties,
            Classification classification, Strategy strategy) {
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

    private static FallbackPlan fallback(ConjunctiveQuery query, String semiring, Set<SemiringProperty> properties,
            Classification classification, List<String> reasons) {
        List<List<DeltaJoinStep>> deltaJoins = new ArrayList<>();
        for (Atom a : query.body()) {
            deltaJoins.add(deltaJoinOrder(query, a));
        }
        return new FallbackPlan(query, semiring, properties, classification, reasons, deltaJoins);
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

    /**
     * Builds the p-hierarchical plan; refuses if the Boolean join is cyclic and too large for the tree
     * decomposition search.
     */
    private static final class Builder {
        private final ConjunctiveQuery query;
        private final String semiring;
        private final Set<SemiringProperty> properties;
        private final Classification classification;
        private final Map<String, BitSet> at = new HashMap<>();
        private final Map<String, String> parentOf = new HashMap<>();
        private final Map<String, List<String>> childrenOf = new HashMap<>();
        private final List<ViewNode> nodes = new ArrayList<>();
        private final Map<String, Integer> nodeOf = new HashMap<>();

        Builder(ConjunctiveQuery query, String semiring, Set<SemiringProperty> properties,
                Classification classification) {
            this.query = query;
            this.semiring = semiring;
            this.properties = properties;
            this.classification = classification;
        }

        /** X < Y: at(X) ⊂ at(Y), or equal atom sets and X lexicographically smaller. */
        private boolean less(String x, String y) {
            BitSet ax = at.get(x);
            BitSet ay = at.get(y);
            if (ax.equals(ay)) {
                return x.compareTo(y) < 0;
            }
            BitSet inter = (BitSet) ax.clone();
            inter.and(ay);
            return inter.equals(ax);
        }

        Attempt build() {
            List<String> bound = query.bound();
            for (String v : bound) {
                at.put(v, query.atomsOf(v));
            }
            // Algorithm 1, lines 1-4: an edge from each bound variable's minimal dominator.
            for (String x : bound) {
                List<String> dominators = new ArrayList<>();
                for (String y : bound) {
                    if (!y.equals(x) && less(x, y)) {
                        dominators.add(y);
                    }
                }
                List<String> minimal = new ArrayList<>();
                for (String y : dominators) {
                    boolean isMinimal = true;
                    for (String z : dominators) {
                        if (!z.equals(y) && less(z, y)) {
                            isMinimal = false;
                            break;
                        }
                    }
                    if (isMinimal) {
                        minimal.add(y);
                    }
                }
                if (minimal.size() > 1) {
                    throw new IllegalStateException("bound variable " + x + " has several minimal dominators "
                            + minimal + " in a p-hierarchical query (Lemma 22 violated)");
                }
                if (minimal.size() == 1) {
                    parentOf.put(x, minimal.get(0));
                    childrenOf.computeIfAbsent(minimal.get(0), k -> new ArrayList<>()).add(x);
                }
            }
            for (List<String> children : childrenOf.values()) {
                Collections.sort(children);
            }
            // Algorithm 1, lines 5-9: each tree's atoms, attached to their lowest bound variable.
            List<String> roots = new ArrayList<>();
            for (String x : bound) {
                if (!parentOf.containsKey(x)) {
                    roots.add(x);
                }
            }
            List<BitSet> treeAtoms = new ArrayList<>();
            for (String r : roots) {
                BitSet atoms = new BitSet();
                for (String v : descendants(r)) {
                    atoms.or(at.get(v));
                }
                treeAtoms.add(atoms);
            }
            List<Integer> order = new ArrayList<>();
            for (int i = 0; i < roots.size(); i++) {
                order.add(i);
            }
            order.sort((i, j) -> Integer.compare(treeAtoms.get(i).nextSetBit(0), treeAtoms.get(j).nextSetBit(0)));

            List<ViewTree> trees = new ArrayList<>();
            Map<Integer, List<Integer>> attached = new HashMap<>();
            for (int i : order) {
                String root = roots.get(i);
                BitSet atoms = treeAtoms.get(i);
                int treeIndex = trees.size();
                List<String> free = freeVariablesOf(atoms);
                int rootNode = addNodes(root, treeIndex, free, new ArrayList<>(), -1, -1, atoms, attached);
                trees.add(new ViewTree(treeIndex, free, rootNode, toList(atoms)));
            }
            attachAtoms(attached);
            for (Atom a : query.body()) {
                if (isFreeOnly(a)) {
                    trees.add(new ViewTree(trees.size(), freeVariablesOf(bitOf(a.index())), -1, List.of(a.index())));
                }
            }
            // Routes past stateless projections.
            List<Route> nodeRoutes = new ArrayList<>();
            for (ViewNode n : nodes) {
                nodeRoutes.add(outputRoute(n, trees));
            }
            List<Route> atomRoutes = new ArrayList<>(Collections.nCopies(query.body().size(), (Route) null));
            for (ViewTree t : trees) {
                if (t.isTrivial()) {
                    atomRoutes.set(t.atoms().get(0), new Route(t.index(), -1, 0, t.schema()));
                }
            }
            for (ViewNode n : nodes) {
                for (int s = 0; s < n.atoms().size(); s++) {
                    Route r = n.isStateful() ? new Route(n.tree(), n.id(), s, n.schema()) : nodeRoutes.get(n.id());
                    atomRoutes.set(n.atoms().get(s), r);
                }
            }
            // The Boolean join over the root schemas.
            List<List<String>> schemas = new ArrayList<>();
            for (ViewTree t : trees) {
                schemas.add(t.schema());
            }
            Gyo.Result gyo = Gyo.reduce(schemas);
            if (!gyo.acyclic()) {
                String tooLarge = TreeDecompositions.limitViolation(schemas);
                if (tooLarge == null) {
                    return new Attempt.Planned(cyclic(trees, atomRoutes, nodeRoutes, schemas));
                }
                List<String> left = new ArrayList<>();
                for (int e : gyo.residual()) {
                    left.add("V[" + String.join(",", schemas.get(e)) + "]");
                }
                return new Attempt.Refused(List.of("the Boolean join of the root views is cyclic (GYO leaves "
                        + String.join(", ", left) + ") and too large for the tree decomposition search: " + tooLarge));
            }
            int[] parent = rerootAtWidest(gyo.parent(), schemas);
            List<JoinTreeNode> joinTree = new ArrayList<>();
            int root = -1;
            for (int i = 0; i < trees.size(); i++) {
                List<String> key = new ArrayList<>();
                if (parent[i] >= 0) {
                    for (String v : trees.get(i).schema()) {
                        if (trees.get(parent[i]).schema().contains(v)) {
                            key.add(v);
                        }
                    }
                } else {
                    root = i;
                }
                joinTree.add(new JoinTreeNode(i, parent[i], key));
            }
            List<Integer> joinOrder = new ArrayList<>();
            preorder(root, parent, joinOrder);
            return new Attempt.Planned(new PHierarchicalPlan(query, semiring, properties, classification,
                    new ViewTreeForest(trees, nodes, atomRoutes, nodeRoutes), joinTree, joinOrder));
        }

        /**
         * The cyclic plan: the bags of a minimum-width tree decomposition of the root schemas, each
         * joining the root views that meet it (a view with an empty schema joins at the root bag).
         */
        private CyclicPHierarchicalPlan cyclic(List<ViewTree> trees, List<Route> atomRoutes, List<Route> nodeRoutes,
                List<List<String>> schemas) {
            TreeDecomposition td = TreeDecompositions.optimal(schemas);
            List<BagNode> bags = new ArrayList<>();
            for (int b = 0; b < td.bags().size(); b++) {
                List<String> variables = new ArrayList<>();
                for (String h : query.head()) {
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
            return new CyclicPHierarchicalPlan(query, semiring, properties, classification,
                    new ViewTreeForest(trees, nodes, atomRoutes, nodeRoutes), bags, td.width());
        }

        /** Re-roots the join tree at the widest schema (lowest index on ties), for a readable plan. */
        private static int[] rerootAtWidest(int[] parent, List<List<String>> schemas) {
            int n = parent.length;
            int root = 0;
            for (int i = 1; i < n; i++) {
                if (schemas.get(i).size() > schemas.get(root).size()) {
                    root = i;
                }
            }
            int[] out = new int[n];
            java.util.Arrays.fill(out, -2);
            out[root] = -1;
            java.util.ArrayDeque<Integer> queue = new java.util.ArrayDeque<>();
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

        private static void preorder(int node, int[] parent, List<Integer> out) {
            out.add(node);
            for (int i = 0; i < parent.length; i++) {
                if (parent[i] == node) {
                    preorder(i, parent, out);
                }
            }
        }

        private Route outputRoute(ViewNode n, List<ViewTree> trees) {
            ViewNode cur = n;
            while (true) {
                if (cur.parent() < 0) {
                    ViewTree t = trees.get(cur.tree());
                    return new Route(t.index(), -1, 0, t.schema());
                }
                ViewNode p = nodes.get(cur.parent());
                if (p.isStateful()) {
                    return new Route(p.tree(), p.id(), cur.slot(), p.schema());
                }
                cur = p;
            }
        }

        private List<String> descendants(String root) {
            List<String> out = new ArrayList<>();
            out.add(root);
            for (int i = 0; i < out.size(); i++) {
                out.addAll(childrenOf.getOrDefault(out.get(i), List.of()));
            }
            return out;
        }

        /** Creates the nodes of x's subtree in pre-order; returns x's node id. */
        private int addNodes(String x, int tree, List<String> free, List<String> ancestors, int parent, int slot,
                BitSet treeAtoms, Map<Integer, List<Integer>> attached) {
            int id = nodes.size();
            nodes.add(null);
            nodeOf.put(x, id);
            List<String> schema = new ArrayList<>(free);
            schema.addAll(ancestors);
            schema.add(x);
            List<Integer> atoms = new ArrayList<>();
            for (int a = treeAtoms.nextSetBit(0); a >= 0; a = treeAtoms.nextSetBit(a + 1)) {
                if (lowestBoundVariable(query.body().get(a), schema).equals(x)) {
                    atoms.add(a);
                }
            }
            List<String> childVars = childrenOf.getOrDefault(x, List.of());
            List<Integer> children = new ArrayList<>();
            List<String> childAncestors = new ArrayList<>(ancestors);
            childAncestors.add(x);
            for (int c = 0; c < childVars.size(); c++) {
                children.add(addNodes(childVars.get(c), tree, free, childAncestors, id, atoms.size() + c,
                        treeAtoms, attached));
            }
            nodes.set(id, new ViewNode(id, tree, x, schema, parent, slot, atoms, children));
            attached.put(id, atoms);
            return id;
        }

        /** Checks that every atom with bound variables was attached exactly once. */
        private void attachAtoms(Map<Integer, List<Integer>> attached) {
            int[] count = new int[query.body().size()];
            for (List<Integer> atoms : attached.values()) {
                for (int a : atoms) {
                    count[a]++;
                }
            }
            for (Atom a : query.body()) {
                int expected = isFreeOnly(a) ? 0 : 1;
                if (count[a.index()] != expected) {
                    throw new IllegalStateException("atom " + a + " attached " + count[a.index()]
                            + " times to bound variable orders (Lemma 22 violated)");
                }
            }
        }

        /** The atom's bound variable deepest on the root path {@code path}, or "" if it is not on it. */
        private String lowestBoundVariable(Atom a, List<String> path) {
            String lowest = "";
            int depth = -1;
            for (String v : a.variables()) {
                if (!query.isFree(v)) {
                    int d = path.indexOf(v);
                    if (d < 0) {
                        return "";
                    }
                    if (d > depth) {
                        depth = d;
                        lowest = v;
                    }
                }
            }
            // The atom belongs here only if its deepest bound variable is the path's last one and all
            // its bound variables are on the path (Lemma 22: they form a root path).
            return depth == path.size() - 1 ? lowest : "";
        }

        private boolean isFreeOnly(Atom a) {
            for (String v : a.variables()) {
                if (!query.isFree(v)) {
                    return false;
                }
            }
            return true;
        }

        private List<String> freeVariablesOf(BitSet atoms) {
            List<String> out = new ArrayList<>();
            for (String h : query.head()) {
                for (int a = atoms.nextSetBit(0); a >= 0; a = atoms.nextSetBit(a + 1)) {
                    if (query.body().get(a).variables().contains(h)) {
                        out.add(h);
                        break;
                    }
                }
            }
            return out;
        }

        private static BitSet bitOf(int i) {
            BitSet b = new BitSet();
            b.set(i);
            return b;
        }

        private static List<Integer> toList(BitSet b) {
            List<Integer> out = new ArrayList<>();
            for (int i = b.nextSetBit(0); i >= 0; i = b.nextSetBit(i + 1)) {
                out.add(i);
            }
            return out;
        }
    }
}
