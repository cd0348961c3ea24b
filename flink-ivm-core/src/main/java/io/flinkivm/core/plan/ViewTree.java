package io.flinkivm.core.plan;

import java.io.Serializable;
import java.util.List;
import org.apache.flink.annotation.Internal;

/**
 * One view tree: a free-dominated q-hierarchical subquery (the atoms of one bound variable order),
 * or a trivial tree made of one atom whose variables are all free. Its root view over the
 * subquery's free variables is cast to the Boolean semiring at the border.
 *
 * @param index index in {@link ViewTreePlan#viewTrees()}
 * @param schema the root view's schema: the subquery's free variables in head order
 * @param rootNode id of the top bound variable's node, or -1 for a trivial tree
 * @param atoms the atoms of the subquery, in body order
 */
@Internal
public record ViewTree(int index, List<String> schema, int rootNode, List<Integer> atoms) implements Serializable {

    public ViewTree {
        schema = List.copyOf(schema);
        atoms = List.copyOf(atoms);
    }

    /** Whether this is a single atom over free variables only. */
    public boolean isTrivial() {
        return rootNode < 0;
    }

    /** A display name such as {@code V[A,C] (root of tree 1)}. */
    public String displayName() {
        return "V[" + String.join(",", schema) + "] (root of tree " + index + ")";
    }
}
