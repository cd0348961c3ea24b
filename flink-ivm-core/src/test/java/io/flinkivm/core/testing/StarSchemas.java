package io.flinkivm.core.testing;

import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;

/**
 * Random star and snowflake schemas with their keys, a query over each and a stream of rows, as a
 * {@link KeyedCase}: one or two fact tables (the second shares the first's order key), two to four
 * dimension tables keyed by their first column, some with a dimension of their own (two levels), a
 * dimension looked up twice through aliases now and then, 4 to 8 atoms in all. A dimension's
 * attribute is grouped by, selected by a constant or summed away. The stream has about one row per
 * dimension key (some fail the selection, some are missing, so rows look up keys that never come),
 * facts referencing them, a second row for a dimension key now and then (identical or not), and, one
 * time in two, the dimensions' rows after the facts' (rows arrive before their key rows).
 */
public final class StarSchemas {
    private StarSchemas() {}

    /** The case of {@code seed} over {@code k}. */
    public static <T> KeyedCase<T> generate(Semiring<T> k, long seed) {
        long spread = seed * 0x9E3779B97F4A7C15L;
        Random r = new Random(spread ^ (spread >>> 31));
        Schema s = Schema.random(r);
        List<Insert<T>> stream = s.stream(r, TestSemirings.payloads(k));
        return new KeyedCase<>(k, seed, s.query(), stream);
    }

    /** A schema and its query, as text, with what the stream needs to know of its relations. */
    private static final class Schema {
        /** Per relation: name, arity, and per column a kind (below). */
        final List<String> names = new ArrayList<>();

        final List<int[]> columns = new ArrayList<>();
        final List<String> atoms = new ArrayList<>();
        final List<String> keys = new ArrayList<>();
        final Set<String> head = new LinkedHashSet<>();
        /** Per relation: whether it is a dimension (keyed by its first column). */
        final List<Boolean> dimension = new ArrayList<>();

        static final int KEY = 0;
        static final int REF = 1;
        static final int ATTR = 2;

        private int fresh;

        static Schema random(Random r) {
            Schema s = new Schema();
            int outer = r.nextInt(3);
            for (int e = 0; e < outer; e++) {
                s.relation("E" + e, new int[] {KEY, ATTR}, true);
            }
            int inner = 2 + r.nextInt(3);
            List<Integer> outerOf = new ArrayList<>();
            for (int d = 0; d < inner; d++) {
                int ref = outer > 0 && r.nextInt(2) == 0 ? r.nextInt(outer) : -1;
                outerOf.add(ref);
                s.relation("D" + d, ref < 0 ? new int[] {KEY, ATTR} : new int[] {KEY, ATTR, REF}, true);
            }
            // The facts' references: each dimension at most twice (aliases), 4 to 8 atoms in all.
            List<Integer> refs = new ArrayList<>();
            for (int d = 0; d < inner; d++) {
                if (r.nextInt(5) > 0 || refs.isEmpty()) {
                    refs.add(d);
                }
                if (r.nextInt(6) == 0) {
                    refs.add(d);
                }
            }
            Collections.shuffle(refs, r);
            boolean two = r.nextInt(2) == 0;
            String order = "o";
            List<String> f0 = new ArrayList<>(List.of(order));
            List<String> f1 = new ArrayList<>(List.of(order));
            List<String> body = new ArrayList<>();
            int atoms = two ? 2 : 1;
            for (int i = 0; i < refs.size() && atoms < 8; i++) {
                int d = refs.get(i);
                String dv = "d" + d + "_" + s.fresh++;
                (two && r.nextInt(3) == 0 ? f1 : f0).add(dv);
                List<String> terms = new ArrayList<>(List.of(dv, s.attribute(r, "a" + d)));
                atoms++;
                int e = outerOf.get(d);
                if (e >= 0) {
                    String ev = "e" + e + "_" + s.fresh++;
                    terms.add(ev);
                    if (atoms < 8 && r.nextInt(4) > 0) {
                        body.add("E" + e + "(" + ev + "," + s.attribute(r, "b" + e) + ")");
                        atoms++;
                    }
                }
                body.add("D" + d + "(" + String.join(",", terms) + ")");
            }
            if (r.nextInt(3) == 0) {
                String m = "m" + s.fresh++;
                f0.add(m);
                if (r.nextInt(2) == 0) {
                    s.head.add(m);
                }
            }
            s.relation("F0", kinds(f0.size()), false);
            s.atoms.add("F0(" + String.join(",", f0) + ")");
            if (two) {
                s.relation("F1", kinds(f1.size()), false);
                s.atoms.add("F1(" + String.join(",", f1) + ")");
            }
            s.atoms.addAll(body);
            for (int d = 0; d < inner; d++) {
                if (String.join(",", s.atoms).contains("D" + d + "(")) {
                    s.keys.add("D" + d + "(#0)");
                }
            }
            for (int e = 0; e < outer; e++) {
                if (String.join(",", s.atoms).contains("E" + e + "(")) {
                    s.keys.add("E" + e + "(#0)");
                }
            }
            return s;
        }

        private static int[] kinds(int arity) {
            int[] out = new int[arity];
            java.util.Arrays.fill(out, ATTR);
            return out;
        }

        private void relation(String name, int[] kinds, boolean isDimension) {
            names.add(name);
            columns.add(kinds);
            dimension.add(isDimension);
        }

        /** An attribute's term: grouped by, a constant (a selection), or summed away. */
        private String attribute(Random r, String prefix) {
            int roll = r.nextInt(6);
            if (roll == 0) {
                return String.valueOf(r.nextInt(2));
            }
            String v = prefix + "_" + fresh++;
            if (roll == 1 && head.size() < 2) {
                head.add(v);
            }
            return v;
        }

        ConjunctiveQuery query() {
            String text = "Q(" + String.join(",", head) + ") :- " + String.join(", ", atoms);
            // Keys are declared by column: a relation's first atom may not have its key's variable first.
            ConjunctiveQuery q = QueryParser.parse(text);
            List<ConjunctiveQuery.Key> declared = new ArrayList<>();
            for (String k : keys) {
                declared.add(ConjunctiveQuery.Key.of(k.substring(0, k.indexOf('(')), 0));
            }
            return q.withKeys(declared);
        }

        <T> List<Insert<T>> stream(Random r, Function<Random, T> payloads) {
            ConjunctiveQuery q = query();
            List<Insert<T>> dims = new ArrayList<>();
            List<Insert<T>> facts = new ArrayList<>();
            int keySpace = 6;
            for (int rel = 0; rel < names.size(); rel++) {
                String name = names.get(rel);
                if (q.arityOf(name) < 0) {
                    continue;
                }
                int[] kinds = columns.get(rel);
                if (dimension.get(rel)) {
                    for (int key = 0; key < keySpace; key++) {
                        if (r.nextInt(5) == 0) {
                            continue; // a key that never comes
                        }
                        Tuple row = row(r, kinds, key);
                        dims.add(new Insert<>(name, row, payloads.apply(r)));
                        if (r.nextInt(12) == 0) {
                            Tuple again = r.nextInt(2) == 0 ? row : row(r, kinds, key);
                            dims.add(new Insert<>(name, again, payloads.apply(r)));
                        }
                    }
                } else {
                    int n = 4 + r.nextInt(14);
                    for (int i = 0; i < n; i++) {
                        Object[] values = new Object[q.arityOf(name)];
                        for (int c = 0; c < values.length; c++) {
                            values[c] = (long) r.nextInt(c == 0 ? 3 : keySpace);
                        }
                        facts.add(new Insert<>(name, Tuple.wrap(values), payloads.apply(r)));
                    }
                }
            }
            List<Insert<T>> out = new ArrayList<>();
            if (r.nextInt(2) == 0) {
                Collections.shuffle(facts, r);
                Collections.shuffle(dims, r);
                out.addAll(facts);
                out.addAll(dims);
            } else {
                out.addAll(facts);
                out.addAll(dims);
                Collections.shuffle(out, r);
            }
            return out;
        }

        private static Tuple row(Random r, int[] kinds, long key) {
            Object[] values = new Object[kinds.length];
            for (int c = 0; c < kinds.length; c++) {
                values[c] = kinds[c] == KEY ? key : kinds[c] == REF ? (long) r.nextInt(6) : (long) r.nextInt(3);
            }
            return Tuple.wrap(values);
        }
    }
}
