package io.flinkivm.core.plan;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.flink.annotation.Internal;

/**
 * The part of a {@link ViewTreePlan} below the border: the forest of view trees that Algorithm 2
 * makes from Algorithm 1's variable orders, and where deltas go once stateless projections are
 * skipped.
 *
 * @param trees the view trees, by {@link ViewTree#index()}: bound-variable trees first, then trivial trees
 * @param nodes one node per bound variable, by {@link ViewNode#id()}
 * @param atomRoutes per atom, where its delta goes first
 * @param nodeRoutes per node, where its projection delta goes
 */
@Internal
public record ViewTreeForest(List<ViewTree> trees, List<ViewNode> nodes, List<Route> atomRoutes, List<Route> nodeRoutes)
        implements Serializable {

    public ViewTreeForest {
        trees = List.copyOf(trees);
        nodes = List.copyOf(nodes);
        atomRoutes = List.copyOf(atomRoutes);
        nodeRoutes = List.copyOf(nodeRoutes);
    }

    /**
     * The routes of a forest of view trees (the planner's step after Algorithm 2): an atom's delta
     * and a node's projection delta go to the first stateful node above them (into the slot of the
     * child they come through), or into the tree's root view.
     */
    static ViewTreeForest routed(int atomCount, List<ViewTree> trees, List<ViewNode> nodes) {
        List<Route> nodeRoutes = new ArrayList<>();
        for (ViewNode n : nodes) {
            nodeRoutes.add(outputRoute(n, trees, nodes));
        }
        List<Route> atomRoutes = new ArrayList<>(Collections.nCopies(atomCount, (Route) null));
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
        return new ViewTreeForest(trees, nodes, atomRoutes, nodeRoutes);
    }

    private static Route outputRoute(ViewNode n, List<ViewTree> trees, List<ViewNode> nodes) {
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

    /** The stateful nodes, in id order: the join views that keep state. */
    public List<ViewNode> statefulNodes() {
        List<ViewNode> out = new ArrayList<>();
        for (ViewNode n : nodes) {
            if (n.isStateful()) {
                out.add(n);
            }
        }
        return out;
    }

    /** Checks the forest's invariants for a query with {@code atomCount} atoms. */
    void validate(int atomCount) {
        PlanText.check(atomRoutes.size() == atomCount, "one route per atom");
        PlanText.check(nodeRoutes.size() == nodes.size(), "one route per node");
        for (ViewNode n : nodes) {
            PlanText.check(
                    n.schema().get(n.schema().size() - 1).equals(n.variable()), "node schema ends with its variable");
        }
        for (int i = 0; i < trees.size(); i++) {
            PlanText.check(trees.get(i).index() == i, "tree index");
        }
    }
}
