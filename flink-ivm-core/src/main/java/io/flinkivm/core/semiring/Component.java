package io.flinkivm.core.semiring;

import java.io.Serializable;
import org.apache.flink.annotation.PublicEvolving;

/**
 * One component of a {@link ProductSemiring} or {@link ProductRing}: a semiring on unboxed longs
 * ({@link LongComponent}: counts, sums, min-plus and max-plus), or (min, max) or (max, min) over a chain
 * of values ({@link ChainComponent}: MIN and MAX of any ordered type).
 */
@PublicEvolving
public sealed interface Component extends Serializable permits LongComponent, ChainComponent {

    /** The component's name in a product's name, e.g. {@code min} or {@code min over STRING}. */
    String label();

    /** The name of the component in a {@link ProductRing}, where it may be a multiset of values. */
    String ringLabel();
}
