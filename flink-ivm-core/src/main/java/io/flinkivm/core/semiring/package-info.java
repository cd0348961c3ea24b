/**
 * Commutative semirings that annotate tuples: the {@link io.flinkivm.core.semiring.Semiring}
 * abstraction, its declared properties, and the built-in semirings ({@link io.flinkivm.core.semiring.Semirings}).
 */
package io.flinkivm.core.semiring;
