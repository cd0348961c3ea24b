package io.flinkivm.sql.translate;

import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Product;
import io.flinkivm.core.semiring.Ring;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.core.semiring.Semirings;
import java.io.Serializable;
import java.util.Arrays;
import java.util.Objects;
import org.apache.flink.annotation.Internal;

/**
 * COUNT(DISTINCT x) per group, folded from the view's result tuples. Each distinct argument x joins the
 * query's head after the grouped values, so that a pair (group, x) is a result tuple (or, with several
 * distinct arguments, a part of some), and it is in the result from its first derivation on: the sink's
 * {@code +I} of it is its border crossing, and under deletes its {@code -D} says that its last derivation
 * left. A group's row is then
 *
 * <ul>
 *   <li>for the other aggregates, the sum of its tuples' payloads, kept in the plan's ring (a change of a
 *       tuple adds its new payload and takes away its old one: O(1), or O(log n) for a MIN or MAX, a
 *       multiset of the n values of the group's tuples);
 *   <li>per distinct aggregate, the number of non-NULL values x for which some tuple of the group holding
 *       x has a non-zero count of the aggregate's rows (those with a non-NULL x that pass its FILTER
 *       clause). Where a pair is one tuple, a tuple whose count becomes non-zero adds one and one whose
 *       count returns to zero takes one away; where a pair spans several tuples (another distinct argument
 *       in the head), a count per pair of its tuples ({@link PairCounts}) says when the pair comes and goes.
 * </ul>
 *
 * The fold is the same for the view's table ({@code io.flinkivm.sql.rows.DistinctFold}, keyed state) and
 * for the command line (a map): both call {@link #apply}.
 */
@Internal
public final class DistinctGroups implements Serializable {
    private static final long serialVersionUID = 1L;

    /**
     * A group: the sum of its tuples' payloads in the plan's ring, and per distinct aggregate the number of
     * its distinct values. What {@link SqlTranslation#outputRow} reads a group's row from.
     */
    public record Group(Object payload, long[] counts) implements Serializable {
        public Group {
            counts = counts.clone();
        }

        /** The distinct count of the {@code k}-th distinct aggregate. */
        public long distinct(int k) {
            return counts[k];
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Group g && payload.equals(g.payload) && Arrays.equals(counts, g.counts);
        }

        @Override
        public int hashCode() {
            return 31 * payload.hashCode() + Arrays.hashCode(counts);
        }

        @Override
        public String toString() {
            return payload + " " + Arrays.toString(counts);
        }
    }

    /**
     * The live tuples of a group that count a pair, where a pair spans several tuples.
     *
     * @param <E> what reading and writing the counts may throw (a state backend's exception)
     */
    public interface PairCounts<E extends Exception> {
        /**
         * Adds {@code delta} to the count of {@code pair} (the aggregate's index and the value) in
         * {@code group} and returns the new count; a count of 0 need not be kept.
         */
        long add(Tuple group, Tuple pair, long delta) throws E;
    }

    private final int groupArity;
    /** Per distinct aggregate: the head position of its argument, -1 where a literal fixes it. */
    private final int[] positions;
    /** Per distinct aggregate: the payload component that counts its rows (0: the hidden count). */
    private final int[] components;
    /** Per distinct aggregate: whether one of its pairs may span several result tuples. */
    private final boolean[] spans;

    /**
     * @param groupArity the number of grouped values, the head's first
     * @param headArity the head's arity: the grouped values, then the distinct arguments
     * @param positions per distinct aggregate, the head position of its argument (-1 where it is a constant)
     * @param components per distinct aggregate, the component counting its rows
     */
    DistinctGroups(int groupArity, int headArity, int[] positions, int[] components) {
        this.groupArity = groupArity;
        this.positions = positions.clone();
        this.components = components.clone();
        this.spans = new boolean[positions.length];
        for (int k = 0; k < positions.length; k++) {
            int own = positions[k] >= groupArity ? 1 : 0;
            spans[k] = headArity > groupArity + own;
        }
    }

    /** The number of distinct aggregates. */
    public int size() {
        return positions.length;
    }

    /** The number of grouped values, the head's first. */
    public int groupArity() {
        return groupArity;
    }

    /** The head position of the {@code k}-th distinct aggregate's argument, -1 where a literal fixes it. */
    int position(int k) {
        return positions[k];
    }

    /** Whether some pair may span several tuples: then {@link #apply} needs {@link PairCounts}. */
    public boolean needsPairCounts() {
        for (boolean s : spans) {
            if (s) {
                return true;
            }
        }
        return false;
    }

    /** The group of a result tuple: its first values. */
    public Tuple group(Tuple tuple) {
        Object[] values = new Object[groupArity];
        for (int i = 0; i < groupArity; i++) {
            values[i] = tuple.get(i);
        }
        return Tuple.wrap(values);
    }

    /** The ring a group's payload is kept in, for a plan over {@code planSemiring}. */
    public static Ring<?> ring(Semiring<?> planSemiring) {
        return Objects.requireNonNull(Semirings.ringFor(planSemiring), "no ring for " + planSemiring.name());
    }

    /**
     * The group of {@code tuple} after the tuple's payload changed from {@code before} to {@code after}
     * (payloads of the plan's semiring, null where the tuple was not, or no longer is, in the result);
     * null if the group has no tuple left.
     *
     * @param ring the ring of {@link #ring(Semiring)}
     * @param group the group before the change (null for none)
     * @param pairs the counts of pairs that span several tuples ({@link #needsPairCounts}); may be null otherwise
     */
    public <R, E extends Exception> Group apply(
            Ring<R> ring, Group group, Tuple tuple, Object before, Object after, PairCounts<E> pairs) throws E {
        R sum = group == null ? ring.zero() : ring.payloadClass().cast(group.payload());
        R old = before == null ? null : SqlTranslation.payloadIn(ring, before);
        R now = after == null ? null : SqlTranslation.payloadIn(ring, after);
        if (old != null) {
            sum = ring.minus(sum, old);
        }
        if (now != null) {
            sum = ring.plus(sum, now);
        }
        if (component(sum, 0) == 0) {
            return null;
        }
        long[] counts =
                group == null ? new long[positions.length] : group.counts().clone();
        Tuple groupKey = null;
        for (int k = 0; k < positions.length; k++) { // per change: no iterator
            int p = positions[k];
            if (p < 0) {
                counts[k] = component(sum, components[k]) > 0 ? 1 : 0;
                continue;
            }
            Object value = tuple.get(p);
            if (SqlType.NULL_TUPLE_VALUE.equals(value)) {
                continue;
            }
            boolean was = old != null && component(old, components[k]) > 0;
            boolean is = now != null && component(now, components[k]) > 0;
            if (was == is) {
                continue;
            }
            long delta = is ? 1 : -1;
            if (spans[k]) {
                if (groupKey == null) {
                    groupKey = group(tuple);
                }
                long n = pairs.add(groupKey, Tuple.of((long) k, value), delta);
                if (n != (is ? 1 : 0)) {
                    continue;
                }
            }
            counts[k] += delta;
        }
        return new Group(sum, counts);
    }

    /** Component {@code c} of a payload: of a product its value, of a count the count itself. */
    private static long component(Object payload, int c) {
        return payload instanceof Product p ? p.get(c) : (Long) payload;
    }
}
