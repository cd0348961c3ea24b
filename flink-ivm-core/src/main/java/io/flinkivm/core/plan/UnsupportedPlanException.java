package io.flinkivm.core.plan;

import org.apache.flink.annotation.PublicEvolving;

/**
 * A legal query (or a plan choice) that this version cannot plan, e.g. the p-hierarchical plan
 * requested for a semiring that is not positive, or a query beyond the planner's size limits. The
 * message says what to do instead.
 */
@PublicEvolving
public class UnsupportedPlanException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public UnsupportedPlanException(String message) {
        super(message);
    }
}
