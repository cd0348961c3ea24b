package io.flinkivm.core.testing;

import io.flinkivm.core.oracle.KDatabase;
import io.flinkivm.core.oracle.NaiveEvaluator;
import io.flinkivm.core.plan.KeyedPlan;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.query.Atom;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

/**
 * One random case of a differential test with keys, determined by its semiring and seed: a query
 * (half of them not p-hierarchical) with a random key on most relations, and a stream that mostly
 * respects the keys: a row with the key value of an earlier row of its relation is, nine times in
 * ten, a copy of it (an identical repeated row, its payloads add), else it keeps its other values
 * and breaks the key. One time in two the rows of one keyed relation come last, so that rows of
 * other relations arrive before their key rows and wait.
 */
public record KeyedCase<T>(Semiring<T> semiring, long seed, ConjunctiveQuery query, List<Insert<T>> stream) {

    public KeyedCase {
        stream = List.copyOf(stream);
    }

    public static <T> KeyedCase<T> generate(Semiring<T> k, long seed) {
        // Spread consecutive seeds: java.util.Random's first numbers of nearby seeds are alike.
        long spread = seed * 0x9E3779B97F4A7C15L;
        Random r = new Random(spread ^ (spread >>> 29));
        int roll = r.nextInt(4);
        ConjunctiveQuery q = roll < 2
                ? RandomQueries.notPHierarchical(r)
                : roll == 2 ? RandomQueries.arbitrary(r) : RandomQueries.pHierarchical(r);
        List<ConjunctiveQuery.Key> keys = new ArrayList<>();
        for (String relation : q.relations()) {
            int arity = q.arityOf(relation);
            if (arity == 0 || r.nextInt(4) == 0) {
                continue;
            }
            List<Integer> columns = new ArrayList<>();
            for (int c = 0; c < arity; c++) {
                columns.add(c);
            }
            java.util.Collections.shuffle(columns, r);
            int size = r.nextInt(20) == 0 ? 0 : 1 + (arity > 2 ? r.nextInt(arity - 1) : 0);
            keys.add(new ConjunctiveQuery.Key(relation, columns.subList(0, size)));
        }
        q = q.withKeys(keys);
        int length = r.nextInt(10) == 0 ? 60 + r.nextInt(61) : 10 + r.nextInt(31);
        return new KeyedCase<>(k, seed, q, stream(q, k, r, length));
    }

    /**
     * A stream of {@code length} inserts into {@code q}'s relations that mostly respects its keys (see
     * the class comment), from {@link RandomStreams#generate}.
     */
    public static <T> List<Insert<T>> stream(ConjunctiveQuery q, Semiring<T> k, Random r, int length) {
        List<ConjunctiveQuery.Key> keys = q.keys();
        RandomStreams.Domain domain = RandomStreams.Domain.random(r);
        List<Insert<T>> raw = RandomStreams.generate(q, k, r, length, domain, TestSemirings.payloads(k));
        Map<String, Map<Tuple, Tuple>> first = new HashMap<>();
        List<Insert<T>> stream = new ArrayList<>();
        for (Insert<T> i : raw) {
            ConjunctiveQuery.Key key = q.keyOf(i.relation());
            Tuple tuple = i.tuple();
            if (key != null) {
                Tuple earlier = first.computeIfAbsent(i.relation(), x -> new HashMap<>())
                        .putIfAbsent(tuple.project(key.positionArray()), tuple);
                if (earlier != null && !earlier.equals(tuple) && r.nextInt(10) != 0) {
                    tuple = earlier;
                }
            }
            stream.add(new Insert<>(i.relation(), tuple, i.payload()));
        }
        if (!keys.isEmpty() && r.nextInt(2) == 0) {
            String late = keys.get(r.nextInt(keys.size())).relation();
            List<Insert<T>> reordered = new ArrayList<>();
            stream.stream().filter(i -> !i.relation().equals(late)).forEach(reordered::add);
            stream.stream().filter(i -> i.relation().equals(late)).forEach(reordered::add);
            stream = reordered;
        }
        return stream;
    }

    /**
     * The positions of the inserts that {@code plan} rejects: a row of a relation with a key stage that
     * has the key value of an earlier kept row, with other values; or any such second row where the
     * relation is absorbed. A row with payload zero is not kept (and so sets no key value); nor is one
     * that no atom of its relation matches, unless rows look its stage up (the stage keeps a mark of
     * it). A plan without key stages rejects nothing.
     */
    public Set<Integer> rejected(MaintenancePlan plan) {
        Set<Integer> out = new TreeSet<>();
        if (!(plan instanceof KeyedPlan keyed)) {
            return out;
        }
        Map<String, Map<Tuple, Tuple>> stored = new HashMap<>();
        for (int n = 0; n < stream.size(); n++) {
            Insert<T> i = stream.get(n);
            if (!reachesStage(keyed, i)) {
                continue;
            }
            Tuple key = i.tuple().project(keyed.query().keyOf(i.relation()).positionArray());
            Tuple earlier =
                    stored.computeIfAbsent(i.relation(), x -> new HashMap<>()).putIfAbsent(key, i.tuple());
            if (earlier != null && (keyed.absorbs(i.relation()) || !earlier.equals(i.tuple()))) {
                out.add(n);
            }
        }
        return out;
    }

    /** Whether insert {@code i} reaches its relation's key stage in {@code plan} (as a row or a mark). */
    private boolean reachesStage(KeyedPlan plan, Insert<T> i) {
        return plan.stage(i.relation()) >= 0
                && !semiring.isZero(i.payload())
                && (matchesAnAtom(i) || plan.isLookedUp(i.relation()) || plan.absorbs(i.relation()));
    }

    /**
     * The stream without the rows that break a key {@code plan} trusts ({@link KeyedPlan#trusted()}):
     * a row with the key value of an earlier row of its relation, other values and a non-zero payload.
     * A trusted key is not checked, so the plan's result is the query's only where it holds.
     */
    public KeyedCase<T> respectingTrusted(MaintenancePlan plan) {
        if (!(plan instanceof KeyedPlan keyed) || keyed.trusted().isEmpty()) {
            return this;
        }
        Map<String, Map<Tuple, Tuple>> first = new HashMap<>();
        List<Insert<T>> kept = new ArrayList<>();
        for (Insert<T> i : stream) {
            ConjunctiveQuery.Key key = query.keyOf(i.relation());
            if (key != null && keyed.trusted().contains(key) && !semiring.isZero(i.payload())) {
                Tuple earlier = first.computeIfAbsent(i.relation(), x -> new HashMap<>())
                        .putIfAbsent(i.tuple().project(key.positionArray()), i.tuple());
                if (earlier != null && !earlier.equals(i.tuple())) {
                    continue;
                }
            }
            kept.add(i);
        }
        return new KeyedCase<>(semiring, seed, query, kept);
    }

    /**
     * Why {@code rejected} (positions) cannot be the rows a run of {@code plan} rejected when the rows
     * arrived in another order (a parallel job): on the rows that reached a key stage and were kept,
     * each key must hold (with one row per key value where the relation is absorbed), and each rejected
     * row must have the key value of a kept row, with other values unless absorbed. Null if it can.
     */
    public String checkRejections(MaintenancePlan plan, Set<Integer> rejected) {
        Map<String, Map<Tuple, Tuple>> kept = new HashMap<>();
        List<Integer> breaking = new ArrayList<>();
        KeyedPlan keyed = plan instanceof KeyedPlan k ? k : null;
        for (int n = 0; n < stream.size(); n++) {
            Insert<T> i = stream.get(n);
            if (keyed == null || !reachesStage(keyed, i)) {
                if (rejected.contains(n)) {
                    return "insert " + (n + 1) + " (" + i + ") was rejected, but breaks no key the plan checks";
                }
                continue;
            }
            Tuple key = i.tuple().project(query.keyOf(i.relation()).positionArray());
            if (rejected.contains(n)) {
                breaking.add(n);
                continue;
            }
            Tuple other =
                    kept.computeIfAbsent(i.relation(), x -> new HashMap<>()).putIfAbsent(key, i.tuple());
            if (other != null && (keyed.absorbs(i.relation()) || !other.equals(i.tuple()))) {
                return "inserts " + i + " and " + i.relation() + other + " were both kept, with one key value";
            }
        }
        for (int n : breaking) {
            Insert<T> i = stream.get(n);
            Tuple key = i.tuple().project(query.keyOf(i.relation()).positionArray());
            Tuple other = kept.getOrDefault(i.relation(), Map.of()).get(key);
            if (other == null || (!keyed.absorbs(i.relation()) && other.equals(i.tuple()))) {
                return "insert " + (n + 1) + " (" + i + ") was rejected, but no kept row has its key value"
                        + (keyed.absorbs(i.relation()) ? "" : " with other values");
            }
        }
        return null;
    }

    private boolean matchesAnAtom(Insert<T> i) {
        for (Atom a : query.atomsOfRelation(i.relation())) {
            if (a.match(i.tuple()) != null) {
                return true;
            }
        }
        return false;
    }

    /** The oracle's result over the first {@code inserts} inserts that are not {@code rejected}. */
    public Map<Tuple, T> expected(int inserts, Set<Integer> rejected) {
        KDatabase<T> db = new KDatabase<>(semiring);
        for (int n = 0; n < inserts; n++) {
            if (!rejected.contains(n)) {
                Insert<T> i = stream.get(n);
                db.insert(i.relation(), i.tuple(), i.payload());
            }
        }
        return NaiveEvaluator.evaluate(query, semiring, db.relations());
    }

    /** Semiring, seed, query and stream, for a failure message. */
    public String describe() {
        return "semiring " + semiring.name() + ", seed " + seed + "\nquery: " + query + "\nstream:\n"
                + RandomStreams.format(stream);
    }
}
