package io.flinkivm.core.testing;

import io.flinkivm.core.query.Atom;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.Constant;
import io.flinkivm.core.query.Term;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.query.Variable;
import io.flinkivm.core.semiring.RandomPayloads;
import io.flinkivm.core.semiring.Semiring;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;

/**
 * Random insert streams over a query's relations. Values come from a small domain (0..2 or 0..3, as
 * {@link Long}s, as {@link String}s "0".."3", or mixed) so that joins fan out and constants in atoms match;
 * about one insert in four repeats an earlier tuple, and some payloads are zero. Deterministic for a
 * given {@link Random}. Some inserts are planted so that joins complete (see {@link #generate(ConjunctiveQuery,
 * Semiring, Random, int, Domain, Function)}).
 */
public final class RandomStreams {

    private RandomStreams() {}

    /** How a stream's values are typed. */
    public enum ValueType {
        /** Longs 0..size-1. */
        LONG,
        /** Strings "0".."size-1". */
        STRING,
        /** Mostly Longs, a quarter of them Strings: 1L and "1" are different values but match the same constant. */
        MIXED
    }

    /** The values of a stream: {@code size} of them, typed by {@code type}. */
    public record Domain(int size, ValueType type) {
        public Domain {
            if (size < 1) {
                throw new IllegalArgumentException("domain size must be at least 1, got " + size);
            }
        }

        /** Size 3 or 4; Long or String values, one time in five mixed. */
        public static Domain random(Random r) {
            int roll = r.nextInt(10);
            return new Domain(
                    3 + r.nextInt(2), roll < 2 ? ValueType.MIXED : roll < 6 ? ValueType.LONG : ValueType.STRING);
        }

        /** The i-th value, 0 ≤ i < size (a Long for a mixed domain). */
        public Object value(int i) {
            return type == ValueType.STRING ? (Object) Integer.toString(i) : (Object) (long) i;
        }

        /** A random value of the domain. */
        public Object value(Random r) {
            int i = r.nextInt(size);
            return type == ValueType.MIXED && r.nextInt(4) == 0 ? Integer.toString(i) : value(i);
        }

        /** The value of this domain that a constant matches (its text, or the number it spells). */
        public Object valueOf(Constant c) {
            if (type == ValueType.STRING) {
                return c.text();
            }
            try {
                return Long.parseLong(c.text());
            } catch (NumberFormatException e) {
                return c.text();
            }
        }

        /** A random tuple of the given arity. */
        public Tuple tuple(Random r, int arity) {
            Object[] values = new Object[arity];
            for (int i = 0; i < arity; i++) {
                values[i] = value(r);
            }
            return Tuple.of(values);
        }
    }

    /** A stream of {@code length} inserts with payloads from {@link RandomPayloads} (built-in semirings). */
    public static <T> List<Insert<T>> generate(ConjunctiveQuery q, Semiring<T> k, Random r, int length) {
        return generate(q, k, r, length, Domain.random(r), rnd -> RandomPayloads.random(k, rnd));
    }

    /**
     * A stream of {@code length} inserts into the relations of {@code q} over {@code domain}, with
     * payloads drawn from {@code payloads} and, one time in twenty, k's zero. A fifth of the inserts
     * repeat an earlier tuple; a third are planted: the tuple that a random atom takes under one of a
     * few fixed assignments of the query's variables, so that joins complete and results are not
     * empty; the rest are uniformly random.
     */
    public static <T> List<Insert<T>> generate(
            ConjunctiveQuery q, Semiring<T> k, Random r, int length, Domain domain, Function<Random, T> payloads) {
        List<String> relations = q.relations();
        List<Map<String, Object>> planted = new ArrayList<>();
        for (int i = 1 + r.nextInt(3); i > 0; i--) {
            Map<String, Object> assignment = new HashMap<>();
            for (String v : q.variables()) {
                assignment.put(v, domain.value(r));
            }
            planted.add(assignment);
        }
        List<Insert<T>> out = new ArrayList<>(length);
        for (int i = 0; i < length; i++) {
            T payload = r.nextInt(20) == 0 ? k.zero() : payloads.apply(r);
            int roll = r.nextInt(100);
            if (!out.isEmpty() && roll < 20) {
                Insert<T> earlier = out.get(r.nextInt(out.size()));
                out.add(new Insert<>(earlier.relation(), earlier.tuple(), payload));
            } else if (roll < 55) {
                Atom a = q.body().get(r.nextInt(q.body().size()));
                out.add(new Insert<>(a.relation(), plant(a, planted.get(r.nextInt(planted.size())), domain), payload));
            } else {
                String relation = relations.get(r.nextInt(relations.size()));
                out.add(new Insert<>(relation, domain.tuple(r, q.arityOf(relation)), payload));
            }
        }
        return out;
    }

    /** The relation tuple that atom {@code a} matches under {@code assignment}. */
    private static Tuple plant(Atom a, Map<String, Object> assignment, Domain domain) {
        Object[] values = new Object[a.arity()];
        for (int p = 0; p < values.length; p++) {
            Term t = a.terms().get(p);
            values[p] = t instanceof Variable v ? assignment.get(v.name()) : domain.valueOf((Constant) t);
        }
        return Tuple.of(values);
    }

    /** The stream one insert per line, each prefixed with its 1-based position. */
    public static String format(List<? extends Insert<?>> stream) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < stream.size(); i++) {
            sb.append(String.format("  %3d. ", i + 1)).append(stream.get(i)).append('\n');
        }
        return sb.toString();
    }
}
