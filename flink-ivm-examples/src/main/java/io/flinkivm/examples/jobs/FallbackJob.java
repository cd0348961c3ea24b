package io.flinkivm.examples.jobs;

import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.NaturalSemiring;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.flink.types.InputRecord;
import java.util.List;

/**
 * A query that is not p-hierarchical (a path through a bound variable): the planner explains why and
 * falls back to first-order delta joins, whose cost per insert grows with the data, as Thm. 2 says it must.
 */
public final class FallbackJob implements ExampleJob<Long> {

    public static final String QUERY = "Reach(User,Topic) :- Follows(User,Author), Posted(Author,Topic)";

    @Override
    public String name() {
        return "fallback";
    }

    @Override
    public String title() {
        return "a path query that is not p-hierarchical: the explanation and the delta-join fallback";
    }

    @Override
    public List<String> story() {
        return List.of(
                "Reach(u,t) counts the ways topic t reaches user u: a post on t by an author u follows.",
                "The bound Author joins two atoms that the free User and Topic do not both reach, so the query",
                "is not p-hierarchical (see the plan's 'Why'): no view tree gives O(1) updates, and flink-ivm",
                "maintains it with first-order delta joins over the natural numbers instead. An insert costs",
                "as many steps as it has partners: with --skew, popular authors make their posts expensive.");
    }

    @Override
    public String query() {
        return QUERY;
    }

    @Override
    public Semiring<Long> semiring() {
        return NaturalSemiring.INSTANCE;
    }

    @Override
    public long defaultInserts() {
        return 50_000;
    }

    @Override
    public InsertGenerator<Long> generator(GeneratorSettings settings) {
        return new Generator(settings);
    }

    /** Follows 60%, Posted 40%; n/20 users, n/100 authors (following --skew), 12 topics. */
    static final class Generator extends SeededGenerator<Long> {
        private static final long serialVersionUID = 1L;
        private final KeyDistribution user;
        private final KeyDistribution author;
        private final KeyDistribution topic = new KeyDistribution(12, 0);

        Generator(GeneratorSettings s) {
            super(s);
            this.user = new KeyDistribution(s.domain(20, 5), 0);
            this.author = new KeyDistribution(s.domain(100, 5), s.skew());
        }

        @Override
        InputRecord<Long> draw(Draws r, long index, String origin) {
            if (r.nextInt(100) < 60) {
                return InputRecord.insert(
                        "Follows", Tuple.wrap(new Object[] {r.key("u", user), r.key("author", author)}), 1L, origin);
            }
            return InputRecord.insert(
                    "Posted", Tuple.wrap(new Object[] {r.key("author", author), r.key("topic", topic)}), 1L, origin);
        }
    }
}
