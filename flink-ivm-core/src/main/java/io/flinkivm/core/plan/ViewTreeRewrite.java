package io.flinkivm.core.plan;

import io.flinkivm.core.query.ConjunctiveQuery;
import java.util.ArrayList;
import java.util.List;

/**
 * Algorithm 2 (Rewrite): turns each extended bound variable order of {@link VariableOrders} into a
 * view tree. Each bound variable X becomes a join view over its children (first the atoms hung under
 * X, then its child variables' projection views) with schema path(X) = the tree's free variables,
 * X's bound ancestors and X, topped by a projection view that sums X out; the top variable's
 * projection is the tree's root view. Each atom over free variables only becomes a trivial tree
 * (Sec. 4.3.3). Nodes are numbered in pre-order, tree by tree; trivial trees come last.
 */
final class ViewTreeRewrite {
    private final ConjunctiveQuery query;
    private final VariableOrders orders;
    private final List<ViewNode> nodes = new ArrayList<>();

    private ViewTreeRewrite(ConjunctiveQuery query, VariableOrders orders) {
        this.query = query;
        this.orders = orders;
    }

    /** The forest of view trees of {@code query}, with the routes between its stateful nodes. */
    static ViewTreeForest rewrite(ConjunctiveQuery query, VariableOrders orders) {
        return new ViewTreeRewrite(query, orders).forest();
    }

    private ViewTreeForest forest() {
        List<ViewTree> trees = new ArrayList<>();
        for (int t = 0; t < orders.roots().size(); t++) {
            List<Integer> atoms = orders.treeAtoms(t);
            List<String> free = freeVariablesOf(atoms);
            int rootNode = addNodes(orders.roots().get(t), t, free, new ArrayList<>(), -1, -1);
            trees.add(new ViewTree(t, free, rootNode, atoms));
        }
        for (int a : orders.freeOnlyAtoms()) {
            trees.add(new ViewTree(trees.size(), freeVariablesOf(List.of(a)), -1, List.of(a)));
        }
        return ViewTreeForest.routed(query.body().size(), trees, nodes);
    }

    /** Creates the nodes of x's subtree in pre-order; returns x's node id. */
    private int addNodes(String x, int tree, List<String> free, List<String> ancestors, int parent, int slot) {
        int id = nodes.size();
        nodes.add(null);
        List<String> schema = new ArrayList<>(free);
        schema.addAll(ancestors);
        schema.add(x);
        List<Integer> atoms = orders.atomsUnder(x);
        List<String> childVars = orders.children(x);
        List<Integer> children = new ArrayList<>();
        List<String> childAncestors = new ArrayList<>(ancestors);
        childAncestors.add(x);
        for (int c = 0; c < childVars.size(); c++) {
            children.add(addNodes(childVars.get(c), tree, free, childAncestors, id, atoms.size() + c));
        }
        nodes.set(id, new ViewNode(id, tree, x, schema, parent, slot, atoms, children));
        return id;
    }

    /** The free variables of some atoms, in head order. */
    private List<String> freeVariablesOf(List<Integer> atoms) {
        List<String> out = new ArrayList<>();
        for (String h : query.head()) {
            for (int a : atoms) {
                if (query.body().get(a).variables().contains(h)) {
                    out.add(h);
                    break;
                }
            }
        }
        return out;
    }
}
