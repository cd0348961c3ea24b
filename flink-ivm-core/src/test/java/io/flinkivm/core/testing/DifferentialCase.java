package io.flinkivm.core.testing;

import io.flinkivm.core.oracle.KDatabase;
import io.flinkivm.core.oracle.NaiveEvaluator;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;

/**
 * One random case of a differential test, fully determined by its semiring and seed: a query (40%
 * constructed p-hierarchical, 15% filtered p-hierarchical, 20% arbitrary, 25% not p-hierarchical), a
 * stream of 8 to 40 inserts (one time in ten 60 to 150), and the checkpoints (numbers of inserts,
 * every 1 to 5, or 1 to 15 for a long stream) after which the result is compared with
 * {@link NaiveEvaluator}'s. Runtimes replay a failing case from "semiring seed".
 *
 * @param kind how the query was generated: constructed, filtered, arbitrary or not p-hierarchical
 */
public record DifferentialCase<T>(
        Semiring<T> semiring,
        long seed,
        String kind,
        ConjunctiveQuery query,
        RandomStreams.Domain domain,
        List<Insert<T>> stream,
        List<Integer> checkpoints) {

    public DifferentialCase {
        stream = List.copyOf(stream);
        checkpoints = List.copyOf(checkpoints);
    }

    /** The case of {@code seed} over {@code k}, with payloads from {@link TestSemirings#payloads}. */
    public static <T> DifferentialCase<T> generate(Semiring<T> k, long seed) {
        return generate(k, seed, TestSemirings.payloads(k));
    }

    public static <T> DifferentialCase<T> generate(Semiring<T> k, long seed, Function<Random, T> payloads) {
        Random r = new Random(seed);
        int roll = r.nextInt(20);
        String kind =
                roll < 8 ? "constructed" : roll < 11 ? "filtered" : roll < 15 ? "arbitrary" : "not p-hierarchical";
        ConjunctiveQuery q = switch (kind) {
            case "constructed" -> RandomQueries.pHierarchicalConstructed(r);
            case "filtered" -> RandomQueries.pHierarchicalFiltered(r);
            case "arbitrary" -> RandomQueries.arbitrary(r);
            default -> RandomQueries.notPHierarchical(r);
        };
        RandomStreams.Domain domain = RandomStreams.Domain.random(r);
        boolean longStream = r.nextInt(10) == 0;
        int length = longStream ? 60 + r.nextInt(91) : 8 + r.nextInt(33);
        int gap = longStream ? 15 : 5;
        List<Insert<T>> stream = RandomStreams.generate(q, k, r, length, domain, payloads);
        List<Integer> checkpoints = new ArrayList<>();
        for (int n = 1 + r.nextInt(gap); n < stream.size(); n += 1 + r.nextInt(gap)) {
            checkpoints.add(n);
        }
        checkpoints.add(stream.size());
        return new DifferentialCase<>(k, seed, kind, q, domain, stream, checkpoints);
    }

    /** The same case with another stream, checked only at its end (for shrinking a failure). */
    public DifferentialCase<T> withStream(List<Insert<T>> other) {
        return new DifferentialCase<>(semiring, seed, kind, query, domain, other, List.of(other.size()));
    }

    /** The oracle's result at each checkpoint, in order. */
    public List<Map<Tuple, T>> expected() {
        KDatabase<T> db = new KDatabase<>(semiring);
        List<Map<Tuple, T>> out = new ArrayList<>();
        int applied = 0;
        for (int checkpoint : checkpoints) {
            for (; applied < checkpoint; applied++) {
                Insert<T> i = stream.get(applied);
                db.insert(i.relation(), i.tuple(), i.payload());
            }
            out.add(NaiveEvaluator.evaluate(query, semiring, db.relations()));
        }
        return out;
    }

    /** Semiring, seed, query and the first {@code inserts} inserts, for a failure message. */
    public String describe(int inserts) {
        return "semiring " + semiring.name() + ", seed " + seed + " (replay: add \"" + semiring.name() + " " + seed
                + "\" to regressions/engine-seeds.txt)\n"
                + "query (" + kind + "): " + query + "\n"
                + "stream, first " + inserts + " of " + stream.size() + " inserts:\n"
                + RandomStreams.format(stream.subList(0, inserts));
    }
}
