/**
 * The planner (Algorithms 1 and 2 of the paper) and the immutable, serializable plans it makes: a
 * sealed {@link io.flinkivm.core.plan.MaintenancePlan} with one record per kind of plan.
 */
package io.flinkivm.core.plan;
