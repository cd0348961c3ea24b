/**
 * The in-memory engines ({@link io.flinkivm.core.engine.IvmEngine}, made by
 * {@link io.flinkivm.core.engine.Engines}): one per plan type, plus the paper's ablation, each
 * assembling the logic of the subpackages over hash maps.
 */
package io.flinkivm.core.engine;
