/**
 * The planner (Algorithms 1 and 2 of the paper) and the immutable, serializable
 * {@link io.flinkivm.core.plan.MaintenancePlan} with its {@code explain()}.
 */
package io.flinkivm.core.plan;
