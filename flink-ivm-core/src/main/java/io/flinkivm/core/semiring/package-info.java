/**
 * Commutative semirings that annotate tuples: the {@link io.flinkivm.core.semiring.Semiring} abstraction, its declared
 * properties, the rings among them ({@link io.flinkivm.core.semiring.Ring}: deletes) and the built-ins
 * ({@link io.flinkivm.core.semiring.Semirings}).
 */
package io.flinkivm.core.semiring;
