package io.flinkivm.core.semiring;

import java.io.Serializable;
import java.util.Arrays;
import java.util.NoSuchElementException;
import java.util.TreeMap;
import java.util.function.LongBinaryOperator;
import org.apache.flink.annotation.PublicEvolving;

/**
 * A finite multiset of values with integer multiplicities, an element of the group ring Z[(V, +)]:
 * a formal sum Σ c_v · x^v. The sum adds multiplicities (a value whose multiplicity reaches 0 is gone),
 * the product is the convolution x^v · x^w = x^(v+w) with multiplicities multiplied, the one is x^0.
 * It is the payload of MIN and MAX under deletes: the least (greatest) value present is the MIN (MAX)
 * of a group, and a delete takes its value's multiplicity away, as Flink SQL's retracting MIN/MAX keep
 * a map from value to count.
 *
 * <p>Values are {@code long}s ordered as signed longs (a caller with other values, e.g. doubles, keeps
 * an order-preserving encoding). Immutable, with value semantics; kept in a persistent treap whose
 * priorities come from the values, so that adding one value to a multiset of n costs O(log n) expected
 * time and allocates O(log n) nodes, the rest being shared. Multiplicities never wrap: an overflow
 * throws {@link PayloadOverflowException}.
 */
@PublicEvolving
public final class ValueMultiset implements Serializable {
    private static final long serialVersionUID = 1L;

    private static final ValueMultiset EMPTY = new ValueMultiset(null);

    private final transient Node root;

    private ValueMultiset(Node root) {
        this.root = root;
    }

    /** The empty multiset (the zero). */
    public static ValueMultiset empty() {
        return EMPTY;
    }

    /** {@code multiplicity} · x^{@code value}; the empty multiset if the multiplicity is 0. */
    public static ValueMultiset of(long value, long multiplicity) {
        return multiplicity == 0 ? EMPTY : new ValueMultiset(new Node(value, multiplicity, null, null));
    }

    /**
     * The multiset of {@code values[i]} with multiplicity {@code multiplicities[i]}, for the first
     * {@code n}; values in increasing order without repeats, multiplicities non-zero. O(n).
     *
     * @throws IllegalArgumentException if the values are not increasing or a multiplicity is 0
     */
    public static ValueMultiset ofSorted(long[] values, long[] multiplicities, int n) {
        for (int i = 0; i < n; i++) {
            if (multiplicities[i] == 0 || i > 0 && values[i - 1] >= values[i]) {
                throw new IllegalArgumentException("values must increase and multiplicities be non-zero, at " + i);
            }
        }
        return new ValueMultiset(build(values, multiplicities, n));
    }

    /** Number of distinct values. */
    public int size() {
        return size(root);
    }

    public boolean isEmpty() {
        return root == null;
    }

    /** The multiplicity of {@code value}; 0 if absent. */
    public long multiplicity(long value) {
        Node t = root;
        while (t != null) {
            if (value == t.value) {
                return t.multiplicity;
            }
            t = value < t.value ? t.left : t.right;
        }
        return 0;
    }

    /** The least value. @throws NoSuchElementException if empty */
    public long first() {
        Node t = nonEmpty();
        while (t.left != null) {
            t = t.left;
        }
        return t.value;
    }

    /** The greatest value. @throws NoSuchElementException if empty */
    public long last() {
        Node t = nonEmpty();
        while (t.right != null) {
            t = t.right;
        }
        return t.value;
    }

    private Node nonEmpty() {
        if (root == null) {
            throw new NoSuchElementException("the multiset is empty");
        }
        return root;
    }

    /** This multiset with {@code multiplicity} more of {@code value}. O(log n). */
    public ValueMultiset add(long value, long multiplicity) {
        return multiplicity == 0 ? this : wrap(add(root, value, multiplicity));
    }

    /** The sum: multiplicities added. O(m log(n + m)) for sizes m ≤ n. */
    public ValueMultiset plus(ValueMultiset o) {
        if (o.root == null) {
            return this;
        }
        if (root == null) {
            return o;
        }
        ValueMultiset big = size(root) >= size(o.root) ? this : o;
        ValueMultiset small = big == this ? o : this;
        Node[] acc = {big.root};
        small.forEach((v, c) -> acc[0] = add(acc[0], v, c));
        return wrap(acc[0]);
    }

    /** The additive inverse: every multiplicity negated. O(n). */
    public ValueMultiset negate() {
        return scale(-1);
    }

    /** Every multiplicity times {@code factor}. O(n). */
    public ValueMultiset scale(long factor) {
        if (factor == 0 || root == null) {
            return EMPTY;
        }
        if (factor == 1) {
            return this;
        }
        int n = size(root);
        long[] values = new long[n];
        long[] multiplicities = new long[n];
        int[] at = {0};
        forEach((v, c) -> {
            values[at[0]] = v;
            multiplicities[at[0]++] = multiply(c, factor);
        });
        return new ValueMultiset(build(values, multiplicities, n));
    }

    /**
     * The product (convolution): Σ c_v d_w · x^(v ⊕ w), with {@code add} the values' sum (it must be
     * monotone in each argument, and throw rather than wrap). O(n · m · log) for sizes n and m;
     * O(n) when one side has a single value.
     */
    public ValueMultiset times(ValueMultiset o, LongBinaryOperator add) {
        if (root == null || o.root == null) {
            return EMPTY;
        }
        ValueMultiset big = size(root) >= size(o.root) ? this : o;
        ValueMultiset small = big == this ? o : this;
        if (small.root.left == null && small.root.right == null) {
            long w = small.root.value;
            long d = small.root.multiplicity;
            int n = size(big.root);
            long[] values = new long[n];
            long[] multiplicities = new long[n];
            int[] at = {0};
            big.forEach((v, c) -> {
                long sum = add.applyAsLong(v, w);
                long product = multiply(c, d);
                int i = at[0];
                if (i > 0 && values[i - 1] == sum) {
                    // A monotone sum may merge neighbours (doubles that round to one value).
                    multiplicities[i - 1] = sum(multiplicities[i - 1], product);
                } else {
                    values[i] = sum;
                    multiplicities[i] = product;
                    at[0]++;
                }
            });
            return compact(values, multiplicities, at[0]);
        }
        TreeMap<Long, Long> out = new TreeMap<>();
        big.forEach((v, c) ->
                small.forEach((w, d) -> out.merge(add.applyAsLong(v, w), multiply(c, d), ValueMultiset::sum)));
        long[] values = new long[out.size()];
        long[] multiplicities = new long[out.size()];
        int i = 0;
        for (var e : out.entrySet()) {
            values[i] = e.getKey();
            multiplicities[i++] = e.getValue();
        }
        return compact(values, multiplicities, i);
    }

    /** The multiset of the sorted values and multiplicities, leaving out the multiplicities that are 0. */
    private static ValueMultiset compact(long[] values, long[] multiplicities, int n) {
        int k = 0;
        for (int i = 0; i < n; i++) {
            if (multiplicities[i] != 0) {
                values[k] = values[i];
                multiplicities[k++] = multiplicities[i];
            }
        }
        return k == 0 ? EMPTY : new ValueMultiset(build(values, multiplicities, k));
    }

    /** Receives one value and its multiplicity. */
    @FunctionalInterface
    public interface EntryConsumer {
        void accept(long value, long multiplicity);
    }

    /** Hands every value with its multiplicity to {@code action}, in increasing order of value. */
    public void forEach(EntryConsumer action) {
        forEach(root, action);
    }

    private static void forEach(Node t, EntryConsumer action) {
        while (t != null) {
            forEach(t.left, action);
            action.accept(t.value, t.multiplicity);
            t = t.right;
        }
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof ValueMultiset m) || hash(root) != hash(m.root) || size(root) != size(m.root)) {
            return false;
        }
        long[][] mine = arrays();
        long[][] theirs = m.arrays();
        return Arrays.equals(mine[0], theirs[0]) && Arrays.equals(mine[1], theirs[1]);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(hash(root));
    }

    /** E.g. {@code {3 5x2 7x-1}}: each value, followed by x and its multiplicity unless that is 1. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("{");
        forEach((v, c) -> sb.append(sb.length() == 1 ? "" : " ").append(v).append(c == 1 ? "" : "x" + c));
        return sb.append('}').toString();
    }

    /** The values and their multiplicities, in increasing order of value. */
    private long[][] arrays() {
        int n = size(root);
        long[][] out = {new long[n], new long[n]};
        int[] at = {0};
        forEach((v, c) -> {
            out[0][at[0]] = v;
            out[1][at[0]++] = c;
        });
        return out;
    }

    private Object writeReplace() {
        long[][] a = arrays();
        return new Serialized(a[0], a[1]);
    }

    private void readObject(java.io.ObjectInputStream in) throws java.io.InvalidObjectException {
        throw new java.io.InvalidObjectException("a ValueMultiset is read through its serialized form");
    }

    /** The serialized form: the values and multiplicities as arrays. */
    private record Serialized(long[] values, long[] multiplicities) implements Serializable {
        private Object readResolve() {
            return ofSorted(values, multiplicities, values.length);
        }
    }

    private static ValueMultiset wrap(Node root) {
        return root == null ? EMPTY : new ValueMultiset(root);
    }

    // ---- the persistent treap ----

    /** A node: immutable, with its subtree's size and hash (the sum of its entries' hashes). */
    private static final class Node {
        final long value;
        final long multiplicity;
        final int priority;
        final Node left;
        final Node right;
        final int size;
        final long hash;

        Node(long value, long multiplicity, Node left, Node right) {
            this.value = value;
            this.multiplicity = multiplicity;
            this.priority = priority(value);
            this.left = left;
            this.right = right;
            this.size = 1 + ValueMultiset.size(left) + ValueMultiset.size(right);
            this.hash = entryHash(value, multiplicity) + ValueMultiset.hash(left) + ValueMultiset.hash(right);
        }
    }

    private static int size(Node t) {
        return t == null ? 0 : t.size;
    }

    private static long hash(Node t) {
        return t == null ? 0 : t.hash;
    }

    /** A priority from the value alone: a multiset's shape depends on its values only. */
    private static int priority(long value) {
        return (int) (mix(value) >>> 32);
    }

    private static long entryHash(long value, long multiplicity) {
        return mix(value * 31 + multiplicity);
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 33)) * 0xff51afd7ed558ccdL;
        z = (z ^ (z >>> 33)) * 0xc4ceb9fe1a85ec53L;
        return z ^ (z >>> 33);
    }

    /** {@code t} with {@code multiplicity} (not 0) more of {@code value}; null if nothing is left. */
    private static Node add(Node t, long value, long multiplicity) {
        if (t == null) {
            return new Node(value, multiplicity, null, null);
        }
        if (value == t.value) {
            long c = sum(t.multiplicity, multiplicity);
            return c == 0 ? merge(t.left, t.right) : new Node(t.value, c, t.left, t.right);
        }
        if (value < t.value) {
            Node l = add(t.left, value, multiplicity);
            if (l != null && l.priority > t.priority) {
                return new Node(l.value, l.multiplicity, l.left, new Node(t.value, t.multiplicity, l.right, t.right));
            }
            return new Node(t.value, t.multiplicity, l, t.right);
        }
        Node r = add(t.right, value, multiplicity);
        if (r != null && r.priority > t.priority) {
            return new Node(r.value, r.multiplicity, new Node(t.value, t.multiplicity, t.left, r.left), r.right);
        }
        return new Node(t.value, t.multiplicity, t.left, r);
    }

    /** The treap of {@code a} and {@code b}, every value of {@code a} below every value of {@code b}. */
    private static Node merge(Node a, Node b) {
        if (a == null) {
            return b;
        }
        if (b == null) {
            return a;
        }
        if (a.priority >= b.priority) {
            return new Node(a.value, a.multiplicity, a.left, merge(a.right, b));
        }
        return new Node(b.value, b.multiplicity, merge(a, b.left), b.right);
    }

    /** The treap of sorted entries in O(n): the Cartesian tree of the priorities, built on a stack. */
    private static Node build(long[] values, long[] multiplicities, int n) {
        int[] left = new int[n];
        int[] right = new int[n];
        int[] stack = new int[n];
        int top = 0;
        for (int i = 0; i < n; i++) {
            left[i] = -1;
            right[i] = -1;
            int last = -1;
            while (top > 0 && priority(values[stack[top - 1]]) < priority(values[i])) {
                last = stack[--top];
            }
            left[i] = last;
            if (top > 0) {
                right[stack[top - 1]] = i;
            }
            stack[top++] = i;
        }
        return top == 0 ? null : node(stack[0], values, multiplicities, left, right);
    }

    private static Node node(int i, long[] values, long[] multiplicities, int[] left, int[] right) {
        Node l = left[i] < 0 ? null : node(left[i], values, multiplicities, left, right);
        Node r = right[i] < 0 ? null : node(right[i], values, multiplicities, left, right);
        return new Node(values[i], multiplicities[i], l, r);
    }

    private static long sum(long a, long b) {
        try {
            return Math.addExact(a, b);
        } catch (ArithmeticException e) {
            throw new PayloadOverflowException("multiplicity overflow: " + a + " + " + b + " exceeds 64 bits");
        }
    }

    private static long multiply(long a, long b) {
        try {
            return Math.multiplyExact(a, b);
        } catch (ArithmeticException e) {
            throw new PayloadOverflowException("multiplicity overflow: " + a + " * " + b + " exceeds 64 bits");
        }
    }
}
