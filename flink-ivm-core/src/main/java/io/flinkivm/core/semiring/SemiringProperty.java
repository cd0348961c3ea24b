package io.flinkivm.core.semiring;

import org.apache.flink.annotation.PublicEvolving;

/** Algebraic properties a {@link Semiring} declares; the planner chooses plans by them. */
@PublicEvolving
public enum SemiringProperty {
    /** a·b = b·a (and a+b = b+a). Required of every semiring. */
    COMMUTATIVE,
    /** a + a = a. */
    IDEMPOTENT,
    /**
     * a+b = 0 implies a = b = 0, and a·b = 0 implies a = 0 or b = 0. The Boolean border of the
     * p-hierarchical plan is sound only for positive semirings.
     */
    POSITIVE,
    /**
     * Every a has an additive inverse −a with a + (−a) = 0: the semiring is a {@link Ring} (and declares
     * this exactly then). Deletes are inserts of the inverse payload; a ring is never {@link #POSITIVE}.
     */
    RING
}
