package io.flinkivm.examples.jobs;

import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.NaturalSemiring;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.flink.types.InputRecord;
import java.util.List;

/**
 * The paper's running example (Ex. 10) over the natural numbers: p-hierarchical but not
 * q-hierarchical, maintained with two stateful join views, two root views and the Boolean join.
 */
public final class Ex10Job implements ExampleJob<Long> {

    public static final String QUERY = "Q(A,C) :- R1(A,B,D,E), R2(A,B,D,F), R3(A,B,G), R4(C), R5(A,C,H)";

    @Override
    public String name() {
        return "ex10";
    }

    @Override
    public String title() {
        return "the paper's running example (Ex. 10) over the natural numbers";
    }

    @Override
    public List<String> story() {
        return List.of(
                "Q(A,C) counts, with multiplicities, the ways to join five relations: the payload of Q(a,c)",
                "is the sum over all joining tuples of the product of their payloads (each insert has payload 1-3).",
                "A and C are free; B, D, E, F, G, H are summed out below the Boolean border.",
                "Join keys A and C follow --skew; the other values are uniform.");
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
        return 100_000;
    }

    @Override
    public InsertGenerator<Long> generator(GeneratorSettings settings) {
        return new Generator(settings);
    }

    /** R1 and R2 30% each, R3 20%, R4 5%, R5 15%; A has n/200 values, C n/400, B 8, D 4, E to H 50. */
    static final class Generator extends SeededGenerator<Long> {
        private static final long serialVersionUID = 1L;
        private final KeyDistribution a;
        private final KeyDistribution c;
        private final KeyDistribution b = new KeyDistribution(8, 0);
        private final KeyDistribution d = new KeyDistribution(4, 0);
        private final KeyDistribution other = new KeyDistribution(50, 0);

        Generator(GeneratorSettings s) {
            super(s);
            this.a = new KeyDistribution(s.domain(200, 5), s.skew());
            this.c = new KeyDistribution(s.domain(400, 5), s.skew());
        }

        @Override
        InputRecord<Long> draw(Draws r, long index, String origin) {
            int which = r.nextInt(100);
            long payload = 1 + r.nextInt(3);
            if (which < 30) {
                return InputRecord.insert(
                        "R1",
                        Tuple.wrap(new Object[] {r.key("a", a), r.key("b", b), r.key("d", d), r.key("e", other)}),
                        payload,
                        origin);
            }
            if (which < 60) {
                return InputRecord.insert(
                        "R2",
                        Tuple.wrap(new Object[] {r.key("a", a), r.key("b", b), r.key("d", d), r.key("f", other)}),
                        payload,
                        origin);
            }
            if (which < 80) {
                return InputRecord.insert(
                        "R3",
                        Tuple.wrap(new Object[] {r.key("a", a), r.key("b", b), r.key("g", other)}),
                        payload,
                        origin);
            }
            if (which < 85) {
                return InputRecord.insert("R4", Tuple.wrap(new Object[] {r.key("c", c)}), payload, origin);
            }
            return InputRecord.insert(
                    "R5", Tuple.wrap(new Object[] {r.key("a", a), r.key("c", c), r.key("h", other)}), payload, origin);
        }
    }
}
