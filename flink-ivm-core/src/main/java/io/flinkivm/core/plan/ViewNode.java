package io.flinkivm.core.plan;

import java.io.Serializable;
import java.util.List;
import org.apache.flink.annotation.Internal;

/**
 * The views of one bound variable X of a view tree (Algorithm 2): the join view over X's children
 * with schema path(X), and the projection view above it that marginalizes X out.
 *
 * <p>Children are numbered by slot: first the atoms attached to X (in body order), then the child
 * variables' projection views. A node with one child is Alg. 2's redundant join view: it keeps no
 * state and passes each delta on under the shorter key.
 *
 * @param id index of this node in {@link ViewTreePlan#viewNodes()}
 * @param tree index of its view tree
 * @param variable the bound variable X
 * @param schema path(X): the tree's free variables (head order), then X's bound ancestors from the
 *     root, then X itself; the projection view's schema is this without its last variable
 * @param parent id of the parent variable's node, or -1 if this is the tree's top variable (its
 *     projection view is then the tree's root view)
 * @param slot this node's child slot in its parent (unused if parent is -1)
 * @param atoms the atoms attached to X (slots 0..atoms.size()-1)
 * @param children ids of the child variables' nodes (the following slots)
 */
@Internal
public record ViewNode(
        int id,
        int tree,
        String variable,
        List<String> schema,
        int parent,
        int slot,
        List<Integer> atoms,
        List<Integer> children)
        implements Serializable {

    public ViewNode {
        schema = List.copyOf(schema);
        atoms = List.copyOf(atoms);
        children = List.copyOf(children);
    }

    /** Number of child slots of the join view. */
    public int arity() {
        return atoms.size() + children.size();
    }

    /** Whether the join view joins two or more children and so needs state. */
    public boolean isStateful() {
        return arity() >= 2;
    }

    /** The projection view's schema: {@link #schema()} without X. */
    public List<String> projectionSchema() {
        return schema.subList(0, schema.size() - 1);
    }

    /** A display name such as {@code V[A,B,D] (join over D)}; also the basis of operator uids. */
    public String displayName() {
        return "V[" + String.join(",", schema) + "] (" + (isStateful() ? "join over " : "projection of ") + variable
                + ")";
    }
}
