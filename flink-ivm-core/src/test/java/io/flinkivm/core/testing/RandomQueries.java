package io.flinkivm.core.testing;

import io.flinkivm.core.analysis.QueryClassifier;
import io.flinkivm.core.query.Atom;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.Constant;
import io.flinkivm.core.query.Term;
import io.flinkivm.core.query.Variable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * Random conjunctive queries for property tests: 1 to {@value #MAX_ATOMS} atoms over up to
 * {@value #MAX_VARIABLES} variables (A to H), relations R0 to R4 (rarely more) so that self-joins are
 * common, heads that are empty, full or anything between, and now and then a repeated variable or a
 * constant (0 to 2) in an atom. Deterministic for a given {@link Random}.
 */
public final class RandomQueries {
    public static final int MAX_ATOMS = 6;
    public static final int MAX_VARIABLES = 8;

    private static final String[] VARIABLES = {"A", "B", "C", "D", "E", "F", "G", "H"};
    private static final int RELATION_NAMES = 5;
    private static final int FILTER_ATTEMPTS = 10_000;

    private RandomQueries() {}

    /** Any query, p-hierarchical or not. */
    public static ConjunctiveQuery arbitrary(Random r) {
        int atomCount = 1 + r.nextInt(MAX_ATOMS);
        List<String> pool = shuffled(r, 1 + r.nextInt(MAX_VARIABLES));
        Relations names = new Relations(r);
        List<Atom> body = new ArrayList<>();
        for (int i = 0; i < atomCount; i++) {
            String relation = names.pickForArbitrary();
            int arity = names.arity(relation);
            List<Term> terms = new ArrayList<>();
            List<String> own = new ArrayList<>();
            for (int p = 0; p < arity; p++) {
                int roll = r.nextInt(100);
                if (roll < 7) {
                    terms.add(constant(r));
                } else if (roll < 15 && !own.isEmpty()) {
                    terms.add(new Variable(own.get(r.nextInt(own.size()))));
                } else {
                    List<String> fresh = new ArrayList<>(pool);
                    fresh.removeAll(own);
                    String v = fresh.isEmpty() ? pool.get(r.nextInt(pool.size())) : fresh.get(r.nextInt(fresh.size()));
                    own.add(v);
                    terms.add(new Variable(v));
                }
            }
            body.add(new Atom(i, relation, terms));
        }
        return new ConjunctiveQuery("Q", randomHead(r, bodyVariables(body)), body);
    }

    /** A p-hierarchical query: usually {@linkplain #pHierarchicalConstructed constructed}, else filtered. */
    public static ConjunctiveQuery pHierarchical(Random r) {
        return r.nextInt(4) == 0 ? pHierarchicalFiltered(r) : pHierarchicalConstructed(r);
    }

    /** The first {@link #arbitrary} query that is p-hierarchical (small queries mostly). */
    public static ConjunctiveQuery pHierarchicalFiltered(Random r) {
        for (int attempt = 0; attempt < FILTER_ATTEMPTS; attempt++) {
            ConjunctiveQuery q = arbitrary(r);
            if (isPHierarchical(q)) {
                return q;
            }
        }
        throw new IllegalStateException("no p-hierarchical query in " + FILTER_ATTEMPTS + " attempts");
    }

    /**
     * A p-hierarchical query built from its structure (Prop. 11): a forest of bound-variable trees,
     * each atom of a tree holding the bound variables on the path from the tree's root to the atom's
     * node plus all free variables of that tree, and atoms over free variables only (possibly none:
     * nullary). Reaches deeper nestings than filtering does.
     */
    public static ConjunctiveQuery pHierarchicalConstructed(Random r) {
        while (true) {
            ConjunctiveQuery q = tryConstruct(r);
            if (q != null) {
                return q;
            }
        }
    }

    /**
     * A q-hierarchical query (Def. 7): the first {@linkplain #pHierarchical p-hierarchical} one that is,
     * constructed or filtered.
     */
    public static ConjunctiveQuery qHierarchical(Random r) {
        for (int attempt = 0; attempt < FILTER_ATTEMPTS; attempt++) {
            ConjunctiveQuery q = pHierarchical(r);
            if (QueryClassifier.classify(q).qHierarchical().holds()) {
                return q;
            }
        }
        throw new IllegalStateException("no q-hierarchical query in " + FILTER_ATTEMPTS + " attempts");
    }

    /** The first {@link #arbitrary} query that is not p-hierarchical; only the fallback plan applies to it. */
    public static ConjunctiveQuery notPHierarchical(Random r) {
        for (int attempt = 0; attempt < FILTER_ATTEMPTS; attempt++) {
            ConjunctiveQuery q = arbitrary(r);
            if (!isPHierarchical(q)) {
                return q;
            }
        }
        throw new IllegalStateException("only p-hierarchical queries in " + FILTER_ATTEMPTS + " attempts");
    }

    /** Whether {@code q} is p-hierarchical (Def. 8), by the classifier. */
    public static boolean isPHierarchical(ConjunctiveQuery q) {
        return QueryClassifier.classify(q).pHierarchical().holds();
    }

    private static ConjunctiveQuery tryConstruct(Random r) {
        List<String> pool = shuffled(r, MAX_VARIABLES);
        int freeCount = r.nextInt(4);
        List<String> free = new ArrayList<>(pool.subList(0, freeCount));
        List<String> boundPool = new ArrayList<>(pool.subList(freeCount, pool.size()));
        int boundCount = r.nextInt(Math.min(boundPool.size(), 5) + 1);
        // Each atom as the list of its distinct variables.
        List<List<String>> atoms = new ArrayList<>();
        int next = 0;
        while (next < boundCount) {
            int size = Math.min(boundCount - next, 1 + r.nextInt(4));
            List<String> vars = boundPool.subList(next, next + size);
            next += size;
            int[] parent = new int[size];
            boolean[] hasChild = new boolean[size];
            parent[0] = -1;
            for (int i = 1; i < size; i++) {
                parent[i] = r.nextInt(i);
                hasChild[parent[i]] = true;
            }
            List<String> treeFree = new ArrayList<>();
            for (String f : free) {
                if (r.nextInt(2) == 0) {
                    treeFree.add(f);
                }
            }
            List<Integer> nodes = new ArrayList<>();
            for (int i = 0; i < size; i++) {
                if (!hasChild[i]) {
                    nodes.add(i);
                }
            }
            int extra = r.nextInt(3);
            for (int e = 0; e < extra; e++) {
                nodes.add(r.nextInt(size));
            }
            for (int node : nodes) {
                List<String> atom = new ArrayList<>(treeFree);
                for (int x = node; x >= 0; x = parent[x]) {
                    atom.add(vars.get(x));
                }
                atoms.add(atom);
            }
        }
        Set<String> covered = new LinkedHashSet<>();
        atoms.forEach(covered::addAll);
        int freeOnly = r.nextInt(3);
        for (int i = 0; i < freeOnly || (atoms.isEmpty() && i == 0); i++) {
            List<String> atom = new ArrayList<>();
            for (String f : free) {
                if (r.nextInt(2) == 0) {
                    atom.add(f);
                }
            }
            if (atom.isEmpty() && !free.isEmpty() && r.nextInt(4) != 0) {
                atom.add(free.get(r.nextInt(free.size())));
            }
            atoms.add(atom);
            covered.addAll(atom);
        }
        List<String> uncovered = new ArrayList<>(free);
        uncovered.removeAll(covered);
        if (!uncovered.isEmpty()) {
            atoms.add(uncovered);
        }
        if (atoms.size() > MAX_ATOMS) {
            return null;
        }
        Collections.shuffle(atoms, r);
        Relations names = new Relations(r);
        List<Atom> body = new ArrayList<>();
        for (List<String> vars : atoms) {
            List<Term> terms = new ArrayList<>();
            for (String v : vars) {
                terms.add(new Variable(v));
            }
            Collections.shuffle(terms, r);
            if (!vars.isEmpty() && r.nextInt(10) == 0) {
                terms.add(r.nextInt(terms.size() + 1), new Variable(vars.get(r.nextInt(vars.size()))));
            }
            if (r.nextInt(10) == 0) {
                terms.add(r.nextInt(terms.size() + 1), constant(r));
            }
            String relation = names.pickForArity(terms.size());
            while (terms.size() < names.arity(relation)) {
                // Pad to a reused relation's arity with selections, which leave at(X) unchanged.
                boolean repeat = !vars.isEmpty() && r.nextBoolean();
                terms.add(
                        r.nextInt(terms.size() + 1),
                        repeat ? new Variable(vars.get(r.nextInt(vars.size()))) : constant(r));
            }
            body.add(new Atom(body.size(), relation, terms));
        }
        List<String> head = new ArrayList<>(free);
        Collections.shuffle(head, r);
        ConjunctiveQuery q = new ConjunctiveQuery("Q", head, body);
        if (!isPHierarchical(q)) {
            throw new IllegalStateException("constructed query is not p-hierarchical: " + q);
        }
        return q;
    }

    private static List<String> shuffled(Random r, int count) {
        List<String> all = new ArrayList<>(List.of(VARIABLES));
        Collections.shuffle(all, r);
        return new ArrayList<>(all.subList(0, count));
    }

    private static List<String> bodyVariables(List<Atom> body) {
        Set<String> vars = new LinkedHashSet<>();
        for (Atom a : body) {
            vars.addAll(a.variables());
        }
        return new ArrayList<>(vars);
    }

    /** Empty one time in five, all variables one time in five, else a random subset; random order. */
    private static List<String> randomHead(Random r, List<String> variables) {
        List<String> head = new ArrayList<>();
        int mode = r.nextInt(5);
        for (String v : variables) {
            if (mode == 1 || (mode > 1 && r.nextBoolean())) {
                head.add(v);
            }
        }
        Collections.shuffle(head, r);
        return head;
    }

    private static Constant constant(Random r) {
        return new Constant(Integer.toString(r.nextInt(3)), r.nextInt(3) == 0);
    }

    /** Relation names with their arities, reused so that self-joins occur. */
    private static final class Relations {
        private final Random r;
        private final Map<String, Integer> arity = new HashMap<>();
        private final int names;

        Relations(Random r) {
            this.r = r;
            this.names = 1 + r.nextInt(RELATION_NAMES);
        }

        int arity(String relation) {
            return arity.get(relation);
        }

        /** One of R0..R(names-1); a new name gets a random arity (0 rarely, up to 4). */
        String pickForArbitrary() {
            String name = "R" + r.nextInt(names);
            arity.computeIfAbsent(name, n -> {
                int roll = r.nextInt(100);
                return roll < 3 ? 0 : roll < 30 ? 1 : roll < 70 ? 2 : roll < 93 ? 3 : 4;
            });
            return name;
        }

        /**
         * Half the time a used name of arity ≥ {@code min} (≤ min + 1), else an unused one of arity
         * {@code min}; beyond R4 when R0..R4 are all taken.
         */
        String pickForArity(int min) {
            List<String> fitting = new ArrayList<>();
            for (Map.Entry<String, Integer> e : arity.entrySet()) {
                if (e.getValue() >= min && e.getValue() <= min + 1) {
                    fitting.add(e.getKey());
                }
            }
            Collections.sort(fitting);
            if (!fitting.isEmpty() && r.nextBoolean()) {
                return fitting.get(r.nextInt(fitting.size()));
            }
            for (int i = 0; ; i++) {
                String name = "R" + i;
                if (!arity.containsKey(name)) {
                    arity.put(name, min);
                    return name;
                }
            }
        }
    }
}
