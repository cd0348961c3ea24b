package io.flinkivm.core.semiring;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;

/**
 * A finite multiset of elements of a {@link Chain} of objects (strings, wide decimals, timestamps with
 * nanoseconds) with integer multiplicities: the MIN or MAX component of a {@link ProductRing} over such a
 * chain, as {@link ValueMultiset} is over longs. An element is a tag and an object ({@link Chain}): a
 * value, or ⊥ or ⊤ (the one of MIN or MAX); elements order as the chain orders them. The sum adds
 * multiplicities (an element whose multiplicity reaches 0 is gone); the product {@link #times} takes, per
 * pair of elements, the greater (or the lesser) with the product of their multiplicities.
 *
 * <p>Immutable, with value semantics; kept in a persistent treap whose priorities come from the elements'
 * hash codes, so that adding an element to a multiset of n costs O(log n) comparisons and allocates
 * O(log n) nodes. Multiplicities never wrap: an overflow throws {@link PayloadOverflowException}.
 */
@PublicEvolving
public final class ObjectMultiset implements Serializable {
    private static final long serialVersionUID = 1L;

    private final Chain chain;
    private final transient Node root;

    private ObjectMultiset(Chain chain, Node root) {
        this.chain = chain;
        this.root = root;
    }

    /** The empty multiset (the zero) of {@code chain}'s elements. */
    public static ObjectMultiset empty(Chain chain) {
        return new ObjectMultiset(Objects.requireNonNull(chain, "chain"), null);
    }

    /** {@code multiplicity} · x^(tag, value); empty if the multiplicity is 0. */
    public static ObjectMultiset of(Chain chain, long tag, Object value, long multiplicity) {
        return empty(chain).add(tag, value, multiplicity);
    }

    /**
     * The multiset of the first {@code n} elements, in increasing order without repeats, multiplicities
     * non-zero. O(n log n).
     *
     * @throws IllegalArgumentException if the elements do not increase or a multiplicity is 0
     */
    public static ObjectMultiset ofSorted(Chain chain, long[] tags, Object[] values, long[] multiplicities, int n) {
        ObjectMultiset m = empty(chain);
        for (int i = 0; i < n; i++) {
            if (multiplicities[i] == 0 || i > 0 && chain.compare(tags[i - 1], values[i - 1], tags[i], values[i]) >= 0) {
                throw new IllegalArgumentException("elements must increase and multiplicities be non-zero, at " + i);
            }
            m = m.add(tags[i], values[i], multiplicities[i]);
        }
        return m;
    }

    public Chain chain() {
        return chain;
    }

    /** Number of distinct elements. */
    public int size() {
        return size(root);
    }

    public boolean isEmpty() {
        return root == null;
    }

    /** The multiplicity of an element; 0 if absent. */
    public long multiplicity(long tag, Object value) {
        Node t = root;
        while (t != null) {
            int c = chain.compare(tag, value, t.tag, t.value);
            if (c == 0) {
                return t.multiplicity;
            }
            t = c < 0 ? t.left : t.right;
        }
        return 0;
    }

    /** The tag of the least element. @throws NoSuchElementException if empty */
    public long firstTag() {
        return leftmost().tag;
    }

    /** The object of the least element (null for ⊥ or ⊤). @throws NoSuchElementException if empty */
    public Object firstValue() {
        return leftmost().value;
    }

    /** The tag of the greatest element. @throws NoSuchElementException if empty */
    public long lastTag() {
        return rightmost().tag;
    }

    /** The object of the greatest element (null for ⊥ or ⊤). @throws NoSuchElementException if empty */
    public Object lastValue() {
        return rightmost().value;
    }

    private Node leftmost() {
        Node t = nonEmpty();
        while (t.left != null) {
            t = t.left;
        }
        return t;
    }

    private Node rightmost() {
        Node t = nonEmpty();
        while (t.right != null) {
            t = t.right;
        }
        return t;
    }

    private Node nonEmpty() {
        if (root == null) {
            throw new NoSuchElementException("the multiset is empty");
        }
        return root;
    }

    /** This multiset with {@code multiplicity} more of an element. O(log n). */
    public ObjectMultiset add(long tag, Object value, long multiplicity) {
        return multiplicity == 0 ? this : wrap(add(root, tag, value, multiplicity));
    }

    /** The sum: multiplicities added. O(m log(n + m)) for sizes m ≤ n. */
    public ObjectMultiset plus(ObjectMultiset o) {
        requireSameChain(o);
        if (o.root == null) {
            return this;
        }
        if (root == null) {
            return o;
        }
        ObjectMultiset big = size(root) >= size(o.root) ? this : o;
        ObjectMultiset small = big == this ? o : this;
        Node[] acc = {big.root};
        small.forEach((t, v, c) -> acc[0] = add(acc[0], t, v, c));
        return wrap(acc[0]);
    }

    /** The additive inverse: every multiplicity negated. O(n log n). */
    public ObjectMultiset negate() {
        return scale(-1);
    }

    /** Every multiplicity times {@code factor}. */
    public ObjectMultiset scale(long factor) {
        if (factor == 0 || root == null) {
            return wrap(null);
        }
        if (factor == 1) {
            return this;
        }
        Node[] acc = {null};
        forEach((t, v, c) -> acc[0] = add(acc[0], t, v, multiply(c, factor)));
        return wrap(acc[0]);
    }

    /**
     * The product: Σ c_a d_b · x^pick(a, b), where pick is the greater element of a and b if {@code
     * greater}, else the lesser. A single element {@code e} with multiplicity d on one side that no element
     * of the other is beyond (⊥ for the greater, ⊤ for the lesser: the one) scales the other by d.
     */
    public ObjectMultiset times(ObjectMultiset o, boolean greater) {
        requireSameChain(o);
        if (root == null || o.root == null) {
            return wrap(null);
        }
        ObjectMultiset big = size(root) >= size(o.root) ? this : o;
        ObjectMultiset small = big == this ? o : this;
        if (small.root.left == null && small.root.right == null) {
            long tag = small.root.tag;
            if (tag == (greater ? Chain.BOTTOM : Chain.TOP)) {
                return big.scale(small.root.multiplicity);
            }
        }
        Node[] acc = {null};
        big.forEach((t, v, c) -> small.forEach((u, w, d) -> {
            int cmp = chain.compare(t, v, u, w);
            boolean first = greater ? cmp >= 0 : cmp <= 0;
            acc[0] = add(acc[0], first ? t : u, first ? v : w, multiply(c, d));
        }));
        return wrap(acc[0]);
    }

    private void requireSameChain(ObjectMultiset o) {
        if (!o.chain.equals(chain)) {
            throw new IllegalArgumentException("multisets of two chains: " + chain + " and " + o.chain);
        }
    }

    /** Receives one element and its multiplicity. */
    @FunctionalInterface
    public interface EntryConsumer {
        void accept(long tag, Object value, long multiplicity);
    }

    /** Hands every element with its multiplicity to {@code action}, in increasing order. */
    public void forEach(EntryConsumer action) {
        forEach(root, action);
    }

    private static void forEach(Node t, EntryConsumer action) {
        while (t != null) {
            forEach(t.left, action);
            action.accept(t.tag, t.value, t.multiplicity);
            t = t.right;
        }
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof ObjectMultiset m)
                || !m.chain.equals(chain)
                || hash(root) != hash(m.root)
                || size(root) != size(m.root)) {
            return false;
        }
        return entries().equals(m.entries());
    }

    @Override
    public int hashCode() {
        return Long.hashCode(hash(root));
    }

    /** E.g. {@code {'a' 'b'x2 bottomx-1}}: each element in the chain's text, then x and its multiplicity unless 1. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("{");
        forEach((t, v, c) -> sb.append(sb.length() == 1 ? "" : " ")
                .append(chain.format(t, v))
                .append(c == 1 ? "" : "x" + c));
        return sb.append('}').toString();
    }

    /** An element with its multiplicity. */
    private record Entry(long tag, Object value, long multiplicity) implements Serializable {}

    private List<Entry> entries() {
        List<Entry> out = new ArrayList<>(size(root));
        forEach((t, v, c) -> out.add(new Entry(t, v, c)));
        return out;
    }

    private Object writeReplace() {
        return new Serialized(chain, entries());
    }

    private void readObject(java.io.ObjectInputStream in) throws java.io.InvalidObjectException {
        throw new java.io.InvalidObjectException("an ObjectMultiset is read through its serialized form");
    }

    /** The serialized form: the chain and the entries in order. */
    private record Serialized(Chain chain, List<Entry> entries) implements Serializable {
        private Object readResolve() {
            ObjectMultiset m = empty(chain);
            for (Entry e : entries) {
                m = m.add(e.tag(), e.value(), e.multiplicity());
            }
            return m;
        }
    }

    private ObjectMultiset wrap(Node r) {
        return r == root ? this : new ObjectMultiset(chain, r);
    }

    // ---- the persistent treap ----

    /** A node: immutable, with its subtree's size and hash (the sum of its entries' hashes). */
    private static final class Node {
        final long tag;
        final Object value;
        final long multiplicity;
        final int priority;
        final Node left;
        final Node right;
        final int size;
        final long hash;

        Node(long tag, Object value, long multiplicity, int priority, Node left, Node right) {
            this.tag = tag;
            this.value = value;
            this.multiplicity = multiplicity;
            this.priority = priority;
            this.left = left;
            this.right = right;
            this.size = 1 + ObjectMultiset.size(left) + ObjectMultiset.size(right);
            this.hash = mix(elementHash(tag, value) * 31 + multiplicity)
                    + ObjectMultiset.hash(left)
                    + ObjectMultiset.hash(right);
        }

        Node with(long multiplicity, Node left, Node right) {
            return new Node(tag, value, multiplicity, priority, left, right);
        }

        Node with(Node left, Node right) {
            return new Node(tag, value, multiplicity, priority, left, right);
        }
    }

    private static int size(Node t) {
        return t == null ? 0 : t.size;
    }

    private static long hash(Node t) {
        return t == null ? 0 : t.hash;
    }

    /** From the element alone (a String's, BigDecimal's or LocalDateTime's hash is the same in every JVM). */
    private static long elementHash(long tag, Object value) {
        return value == null ? tag : value.hashCode();
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 33)) * 0xff51afd7ed558ccdL;
        z = (z ^ (z >>> 33)) * 0xc4ceb9fe1a85ec53L;
        return z ^ (z >>> 33);
    }

    /** {@code t} with {@code multiplicity} (not 0) more of the element; null if nothing is left. */
    private Node add(Node t, long tag, Object value, long multiplicity) {
        if (t == null) {
            return new Node(tag, value, multiplicity, (int) (mix(elementHash(tag, value)) >>> 32), null, null);
        }
        int c = chain.compare(tag, value, t.tag, t.value);
        if (c == 0) {
            long sum = sum(t.multiplicity, multiplicity);
            return sum == 0 ? merge(t.left, t.right) : t.with(sum, t.left, t.right);
        }
        if (c < 0) {
            Node l = add(t.left, tag, value, multiplicity);
            if (l != null && l.priority > t.priority) {
                return l.with(l.left, t.with(l.right, t.right));
            }
            return t.with(l, t.right);
        }
        Node r = add(t.right, tag, value, multiplicity);
        if (r != null && r.priority > t.priority) {
            return r.with(t.with(t.left, r.left), r.right);
        }
        return t.with(t.left, r);
    }

    /** The treap of {@code a} and {@code b}, every element of {@code a} below every element of {@code b}. */
    private static Node merge(Node a, Node b) {
        if (a == null) {
            return b;
        }
        if (b == null) {
            return a;
        }
        if (a.priority >= b.priority) {
            return a.with(a.left, merge(a.right, b));
        }
        return b.with(merge(a, b.left), b.right);
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
