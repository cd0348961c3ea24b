package io.flinkivm.core.query;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.annotation.PublicEvolving;

/**
 * A conjunctive query {@code Q(F) :- R1(X1), ..., Rk(Xk)} over a semiring: the sum over the bound
 * variables of the product of the atoms' payloads. Immutable; validated on construction.
 *
 * <p>A query may declare {@linkplain Key keys}: a key of a relation is a set of its columns that
 * determines the whole tuple on databases where it holds. The planner may rely on them (see
 * {@code Planner}); a query without keys is the same value as before keys existed (its text, equality
 * and hash code do not mention them).
 */
@PublicEvolving
public final class ConjunctiveQuery implements Serializable {
    private static final long serialVersionUID = 1L;

    /**
     * A key of {@code relation}: its columns at {@code positions} (0-based, kept sorted) determine the
     * whole tuple on databases where the key holds. No positions: the relation holds at most one tuple.
     */
    public record Key(String relation, List<Integer> positions) implements Serializable {
        public Key {
            if (relation == null || relation.isEmpty()) {
                throw new IllegalArgumentException("a key needs a relation name");
            }
            List<Integer> sorted = new ArrayList<>(positions);
            Collections.sort(sorted);
            for (int i = 0; i < sorted.size(); i++) {
                if (sorted.get(i) < 0) {
                    throw new InvalidQueryException(
                            "key of " + relation + " names column " + sorted.get(i) + "; columns count from 0");
                }
                if (i > 0 && sorted.get(i).equals(sorted.get(i - 1))) {
                    throw new InvalidQueryException("key of " + relation + " names column " + sorted.get(i) + " twice");
                }
            }
            positions = List.copyOf(sorted);
        }

        /** A key of {@code relation} over the columns at {@code positions}. */
        public static Key of(String relation, int... positions) {
            List<Integer> p = new ArrayList<>();
            for (int i : positions) {
                p.add(i);
            }
            return new Key(relation, p);
        }

        /** The key's columns as an array. */
        public int[] positionArray() {
            int[] out = new int[positions.size()];
            for (int i = 0; i < out.length; i++) {
                out[i] = positions.get(i);
            }
            return out;
        }
    }

    private final String name;
    private final List<String> head;
    private final List<Atom> body;
    private final List<Key> keys;
    private final List<String> variables;
    private final Map<String, BitSet> atomsOf;

    /**
     * A query without keys.
     *
     * @throws InvalidQueryException if the body is empty, a head variable is missing from the body
     *     or repeated, or two atoms of one relation have different arities
     */
    public ConjunctiveQuery(String name, List<String> head, List<Atom> body) {
        this(name, head, body, List.of());
    }

    /**
     * A query with keys, kept in the order of their relations' first occurrence in the body.
     *
     * @throws InvalidQueryException as {@link #ConjunctiveQuery(String, List, List)}, or if a key
     *     names a relation the body does not use, a column beyond the relation's arity, or a relation
     *     that already has a key
     */
    public ConjunctiveQuery(String name, List<String> head, List<Atom> body, List<Key> keys) {
        this.name = name;
        this.head = List.copyOf(head);
        this.body = List.copyOf(body);
        if (body.isEmpty()) {
            throw new InvalidQueryException("query " + name + " has an empty body; it needs at least one atom");
        }
        Map<String, Integer> arity = new LinkedHashMap<>();
        Set<String> vars = new LinkedHashSet<>();
        Map<String, BitSet> at = new LinkedHashMap<>();
        for (int i = 0; i < this.body.size(); i++) {
            Atom a = this.body.get(i);
            if (a.index() != i) {
                throw new IllegalArgumentException("atom " + a + " has index " + a.index() + ", expected " + i);
            }
            Integer known = arity.putIfAbsent(a.relation(), a.arity());
            if (known != null && known != a.arity()) {
                throw new InvalidQueryException(
                        "relation " + a.relation() + " is used with arity " + known + " and with arity " + a.arity()
                                + " (" + a + "); all atoms of one relation need the same arity");
            }
            for (String v : a.variables()) {
                vars.add(v);
                at.computeIfAbsent(v, k -> new BitSet()).set(i);
            }
        }
        Set<String> seen = new LinkedHashSet<>();
        for (String h : this.head) {
            if (!seen.add(h)) {
                throw new InvalidQueryException("head variable " + h + " appears twice in the head of " + name);
            }
            if (!vars.contains(h)) {
                throw new InvalidQueryException("head variable " + h + " does not occur in the body of " + name
                        + "; every free variable must appear in some atom");
            }
        }
        this.variables = List.copyOf(vars);
        this.atomsOf = at;
        this.keys = checkKeys(name, arity, keys);
    }

    /** The keys checked against the relations' arities, one per relation, in order of the relations. */
    private static List<Key> checkKeys(String name, Map<String, Integer> arity, List<Key> keys) {
        Map<String, Key> byRelation = new LinkedHashMap<>();
        for (Key k : keys) {
            Integer n = arity.get(k.relation());
            if (n == null) {
                throw new InvalidQueryException("key of " + k.relation() + ": " + name + " uses no relation "
                        + k.relation() + "; it uses " + String.join(", ", arity.keySet()));
            }
            for (int p : k.positions()) {
                if (p >= n) {
                    throw new InvalidQueryException("key of " + k.relation() + " names column " + p + ", but "
                            + k.relation() + " has arity " + n + " (columns 0 to " + (n - 1) + ")");
                }
            }
            if (byRelation.putIfAbsent(k.relation(), k) != null) {
                throw new InvalidQueryException(
                        "relation " + k.relation() + " has two keys; declare at most one key per relation");
            }
        }
        List<Key> ordered = new ArrayList<>();
        for (String r : arity.keySet()) {
            Key k = byRelation.get(r);
            if (k != null) {
                ordered.add(k);
            }
        }
        return List.copyOf(ordered);
    }

    public String name() {
        return name;
    }

    /** The declared keys, at most one per relation, in order of the relations' first occurrence. */
    public List<Key> keys() {
        return keys;
    }

    /** The key of {@code relation}, or null if it has none. */
    public Key keyOf(String relation) {
        for (Key k : keys) {
            if (k.relation().equals(relation)) {
                return k;
            }
        }
        return null;
    }

    /**
     * How the query's text writes {@code key}: e.g. {@code orders(ok)} by the variables of an atom of
     * its relation, or {@code orders(#0)} by column where names would be ambiguous.
     */
    public String keyText(Key key) {
        return KeyText.render(body, key);
    }

    /**
     * This query with {@code keys} instead of its own (this query itself if they are the same).
     *
     * @throws InvalidQueryException as the constructor
     */
    public ConjunctiveQuery withKeys(List<Key> keys) {
        ConjunctiveQuery q = new ConjunctiveQuery(name, head, body, keys);
        return q.keys.equals(this.keys) ? this : q;
    }

    /** The free variables, in head order. */
    public List<String> head() {
        return head;
    }

    /** The atoms, in body order; atom i has index i. */
    public List<Atom> body() {
        return body;
    }

    /** All variables, in order of first occurrence in the body. */
    public List<String> variables() {
        return variables;
    }

    /** The free variables (same as {@link #head()}). */
    public List<String> free() {
        return head;
    }

    /** The bound variables, in order of first occurrence in the body. */
    public List<String> bound() {
        List<String> out = new ArrayList<>();
        for (String v : variables) {
            if (!head.contains(v)) {
                out.add(v);
            }
        }
        return out;
    }

    public boolean isFree(String variable) {
        return head.contains(variable);
    }

    /** at(X): the indexes of the atoms that contain {@code variable} (a copy). */
    public BitSet atomsOf(String variable) {
        BitSet b = atomsOf.get(variable);
        if (b == null) {
            throw new IllegalArgumentException("unknown variable " + variable);
        }
        return (BitSet) b.clone();
    }

    /** The distinct relation names, in order of first occurrence. */
    public List<String> relations() {
        Set<String> out = new LinkedHashSet<>();
        for (Atom a : body) {
            out.add(a.relation());
        }
        return List.copyOf(out);
    }

    /** The atoms that name {@code relation}, in body order (empty if none). */
    public List<Atom> atomsOfRelation(String relation) {
        List<Atom> out = new ArrayList<>();
        for (Atom a : body) {
            if (a.relation().equals(relation)) {
                out.add(a);
            }
        }
        return out;
    }

    /** The arity of {@code relation}, or -1 if the query does not use it. */
    public int arityOf(String relation) {
        for (Atom a : body) {
            if (a.relation().equals(relation)) {
                return a.arity();
            }
        }
        return -1;
    }

    /** Whether some relation occurs in more than one atom. */
    public boolean hasSelfJoin() {
        return relations().size() < body.size();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ConjunctiveQuery q
                && q.name.equals(name)
                && q.head.equals(head)
                && q.body.equals(body)
                && q.keys.equals(keys);
    }

    @Override
    public int hashCode() {
        int h = 31 * (31 * name.hashCode() + head.hashCode()) + body.hashCode();
        return keys.isEmpty() ? h : 31 * h + keys.hashCode();
    }

    /**
     * The query in the parser's syntax, e.g. {@code Q(A,C) :- R1(A,B), R2(B,C)}, its keys after
     * {@code KEY} (e.g. {@code KEY R1(A)}), each named by the variables of an atom where that is
     * unambiguous, else by column ({@code R1(#0)}).
     */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(name)
                .append('(')
                .append(String.join(",", head))
                .append(") :- ");
        for (int i = 0; i < body.size(); i++) {
            if (i > 0) {
                sb.append(", ");
            }
            sb.append(body.get(i));
        }
        for (int i = 0; i < keys.size(); i++) {
            sb.append(i == 0 ? " KEY " : ", ").append(KeyText.render(body, keys.get(i)));
        }
        return sb.toString();
    }
}
