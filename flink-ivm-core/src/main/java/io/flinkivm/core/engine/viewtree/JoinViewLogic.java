package io.flinkivm.core.engine.viewtree;

import io.flinkivm.core.semiring.Semiring;
import java.io.Serializable;
import org.apache.flink.annotation.Internal;

/**
 * What happens at a join view V_X(S) = C_1(S) · ... · C_n(S) when child {@code slot} receives a
 * delta d at key s (insert-only delta rule, Sec. 2): C_slot(s) += d, and the projection above
 * receives d · Π_{i≠slot} C_i(s). Written once; used by the in-memory engine and the Flink operators.
 *
 * <p>Both results are computed before state is written, so an arithmetic failure (e.g. natural
 * overflow) leaves this view unchanged.
 */
@Internal
public final class JoinViewLogic<T> implements Serializable {
    private static final long serialVersionUID = 1L;

    private final Semiring<T> semiring;
    private final int arity;

    public JoinViewLogic(Semiring<T> semiring, int arity) {
        if (arity < 2) {
            throw new IllegalArgumentException("a join view needs at least two children, got " + arity);
        }
        this.semiring = semiring;
        this.arity = arity;
    }

    public int arity() {
        return arity;
    }

    /**
     * Applies {@code delta} to child {@code slot} and returns the delta for the projection view above,
     * which is zero (see {@link Semiring#isZero}) when some other child is still zero.
     */
    public T onChildDelta(ChildPayloads<T> state, int slot, T delta) {
        T old = state.get(slot);
        T updated = old == null ? delta : semiring.plus(old, delta);
        T product = product(state, slot, delta);
        state.set(slot, updated);
        return product;
    }

    /**
     * The delta for the projection view above when child {@code slot} receives {@code delta}:
     * {@code delta} times every other child's payload, zero (see {@link Semiring#isZero}) when some
     * other child is still zero. Reads only.
     */
    public T product(ChildPayloads<T> state, int slot, T delta) {
        T product = delta;
        for (int i = 0; i < arity; i++) {
            if (i != slot) {
                T other = state.get(i);
                if (other == null || semiring.isZero(other)) {
                    return semiring.zero();
                }
                product = semiring.times(product, other);
            }
        }
        return product;
    }
}
