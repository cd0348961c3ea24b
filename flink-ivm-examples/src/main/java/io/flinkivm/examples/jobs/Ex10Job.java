package io.flinkivm.examples.jobs;

import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.NaturalSemiring;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.flink.InputRecord;
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
    static final class Generator extends InsertGenerator<Long> {
        private static final long serialVersionUID = 1L;
        private final GeneratorSettings s;
        private final KeyDistribution a;
        private final KeyDistribution c;
        private final KeyDistribution b = new KeyDistribution(8, 0);
        private final KeyDistribution d = new KeyDistribution(4, 0);
        private final KeyDistribution other = new KeyDistribution(50, 0);

        Generator(GeneratorSettings s) {
            this.s = s;
            this.a = new KeyDistribution(s.domain(200, 5), s.skew());
            this.c = new KeyDistribution(s.domain(400, 5), s.skew());
        }

        @Override
        public long count() {
            return s.inserts();
        }

        @Override
        public InputRecord<Long> record(long index) {
            Draws r = new Draws(s.seed(), index);
            int which = r.nextInt(100);
            long payload = 1 + r.nextInt(3);
            String origin = "insert " + index;
            if (which < 30) {
                return InputRecord.insert("R1", Tuple.wrap(new Object[] {
                        key("a", r, a), key("b", r, b), key("d", r, d), key("e", r, other)}), payload, origin);
            }
            if (which < 60) {
                return InputRecord.insert("R2", Tuple.wrap(new Object[] {
                        key("a", r, a), key("b", r, b), key("d", r, d), key("f", r, other)}), payload, origin);
            }
            if (which < 80) {
                return InputRecord.insert("R3", Tuple.wrap(new Object[] {
                        key("a", r, a), key("b", r, b), key("g", r, other)}), payload, origin);
            }
            if (which < 85) {
                return InputRecord.insert("R4", Tuple.wrap(new Object[] {key("c", r, c)}), payload, origin);
            }
            return InputRecord.insert("R5", Tuple.wrap(new Object[] {
                    key("a", r, a), key("c", r, c), key("h", r, other)}), payload, origin);
        }
    }

    /** A value such as {@code a17}: the prefix and the key's rank from 1 (a1 is the hottest under skew). */
    static String key(String prefix, Draws r, KeyDistribution keys) {
        return prefix + (r.next(keys) + 1);
    }
}
