/**
 * In front of the view trees of a {@link io.flinkivm.core.plan.KeyedPlan}: the key stages, which check
 * the keys the plan relies on and extend rows by the values their key rows give, written once against
 * {@link io.flinkivm.core.engine.keys.KeyStageStore} and shared by the in-memory engine and the Flink
 * key stage operators.
 */
package io.flinkivm.core.engine.keys;
