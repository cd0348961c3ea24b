package io.flinkivm.core.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.query.Atom;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.Constant;
import io.flinkivm.core.query.QueryParser;
import java.util.Random;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class RandomQueriesTest {

    private static final int QUERIES = 2000;

    /** Counts of the features a generator must produce now and then. */
    private static final class Features {
        int selfJoins;
        int emptyHeads;
        int fullHeads;
        int repeatedVariables;
        int constants;
        int nullaryAtoms;
        int pHierarchical;
        int maxAtoms;
    }

    private static Features generate(Function<Random, ConjunctiveQuery> generator, long seed) {
        Random r = new Random(seed);
        Features f = new Features();
        for (int i = 0; i < QUERIES; i++) {
            ConjunctiveQuery q = generator.apply(r);
            assertThat(q.body()).hasSizeBetween(1, RandomQueries.MAX_ATOMS);
            assertThat(q.variables().size()).isLessThanOrEqualTo(RandomQueries.MAX_VARIABLES);
            assertThat(QueryParser.parse(q.toString()))
                    .as("parser round trip of %s", q)
                    .isEqualTo(q);
            f.selfJoins += q.hasSelfJoin() ? 1 : 0;
            f.emptyHeads += q.head().isEmpty() ? 1 : 0;
            f.fullHeads += !q.head().isEmpty() && q.bound().isEmpty() ? 1 : 0;
            f.pHierarchical += RandomQueries.isPHierarchical(q) ? 1 : 0;
            f.maxAtoms = Math.max(f.maxAtoms, q.body().size());
            boolean repeated = false;
            boolean constant = false;
            boolean nullary = false;
            for (Atom a : q.body()) {
                repeated |= a.variables().size()
                                + a.terms().stream()
                                        .filter(t -> t instanceof Constant)
                                        .count()
                        < a.arity();
                constant |= a.terms().stream().anyMatch(t -> t instanceof Constant);
                nullary |= a.arity() == 0;
            }
            f.repeatedVariables += repeated ? 1 : 0;
            f.constants += constant ? 1 : 0;
            f.nullaryAtoms += nullary ? 1 : 0;
        }
        return f;
    }

    @Test
    void arbitraryQueriesCoverTheFeatures() {
        Features f = generate(RandomQueries::arbitrary, 1);
        assertThat(f.selfJoins).isGreaterThan(QUERIES / 3);
        assertThat(f.emptyHeads).isGreaterThan(QUERIES / 10);
        assertThat(f.fullHeads).isGreaterThan(QUERIES / 10);
        assertThat(f.repeatedVariables).isGreaterThan(QUERIES / 10);
        assertThat(f.constants).isGreaterThan(QUERIES / 10);
        assertThat(f.nullaryAtoms).isGreaterThan(QUERIES / 100);
        assertThat(f.pHierarchical).isBetween(QUERIES / 4, QUERIES - QUERIES / 10);
        assertThat(f.maxAtoms).isEqualTo(RandomQueries.MAX_ATOMS);
    }

    @Test
    void constructedQueriesArePHierarchicalAndCoverTheFeatures() {
        Features f = generate(RandomQueries::pHierarchicalConstructed, 2);
        assertThat(f.pHierarchical).isEqualTo(QUERIES);
        assertThat(f.selfJoins).isGreaterThan(QUERIES / 5);
        assertThat(f.emptyHeads).isGreaterThan(QUERIES / 10);
        assertThat(f.repeatedVariables).isGreaterThan(QUERIES / 20);
        assertThat(f.constants).isGreaterThan(QUERIES / 10);
        assertThat(f.nullaryAtoms).isGreaterThan(QUERIES / 100);
        assertThat(f.maxAtoms).isEqualTo(RandomQueries.MAX_ATOMS);
    }

    @Test
    void filteredQueriesAreWhatTheySay() {
        assertThat(generate(RandomQueries::pHierarchicalFiltered, 3).pHierarchical)
                .isEqualTo(QUERIES);
        assertThat(generate(RandomQueries::notPHierarchical, 4).pHierarchical).isZero();
        assertThat(generate(RandomQueries::pHierarchical, 5).pHierarchical).isEqualTo(QUERIES);
    }

    @Test
    void sameRandomGivesTheSameQueries() {
        Random a = new Random(42);
        Random b = new Random(42);
        for (int i = 0; i < 100; i++) {
            assertThat(RandomQueries.pHierarchical(a)).isEqualTo(RandomQueries.pHierarchical(b));
            assertThat(RandomQueries.arbitrary(a)).isEqualTo(RandomQueries.arbitrary(b));
        }
    }
}
