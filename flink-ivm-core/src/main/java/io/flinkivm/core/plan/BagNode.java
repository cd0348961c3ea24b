package io.flinkivm.core.plan;

import java.io.Serializable;
import java.util.List;
import org.apache.flink.annotation.Internal;

/**
 * A bag of the tree decomposition above the border ({@link CyclicPHierarchicalPlan}). It
 * materializes the Boolean join of the projections onto its variables of the root views that meet
 * it; the bags then form an α-acyclic join tree, maintained like the acyclic plan's.
 *
 * @param index position in {@link CyclicPHierarchicalPlan#bags()}; pre-order, so bag 0 is the root and a
 *     parent precedes its children
 * @param variables χ(t), in head order
 * @param rho ρ* of the bag over the root schemas: its materialization holds at most N^ρ* tuples
 * @param parent the parent bag, or -1 for the root
 * @param key the variables shared with the parent, in this bag's order; empty for the root and for a
 *     disconnected part (a cross product)
 * @param trees the view trees whose root views are joined in this bag, in index order: those whose
 *     schema meets the bag, and at the root also those with an empty schema
 */
@Internal
public record BagNode(int index, List<String> variables, double rho, int parent, List<String> key, List<Integer> trees)
        implements Serializable {

    public BagNode {
        variables = List.copyOf(variables);
        key = List.copyOf(key);
        trees = List.copyOf(trees);
    }
}
