package io.flinkivm.core.query;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A conjunctive query {@code Q(F) :- R1(X1), ..., Rk(Xk)} over a semiring: the sum over the bound
 * variables of the product of the atoms' payloads. Immutable; validated on construction.
 */
public final class ConjunctiveQuery implements Serializable {
    private static final long serialVersionUID = 1L;

    private final String name;
    private final List<String> head;
    private final List<Atom> body;
    private final List<String> variables;
    private final Map<String, BitSet> atomsOf;

    /**
     * @throws InvalidQueryException if the body is empty, a head variable is missing from the body
     *     or repeated, or two atoms of one relation have different arities
     */
    public ConjunctiveQuery(String name, List<String> head, List<Atom> body) {
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
    }

    public String name() {
        return name;
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
        return o instanceof ConjunctiveQuery q && q.name.equals(name) && q.head.equals(head) && q.body.equals(body);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * name.hashCode() + head.hashCode()) + body.hashCode();
    }

    /** The query in the parser's syntax, e.g. {@code Q(A,C) :- R1(A,B), R2(B,C)}. */
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
        return sb.toString();
    }
}
