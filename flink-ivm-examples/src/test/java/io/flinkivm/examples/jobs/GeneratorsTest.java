package io.flinkivm.examples.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.flink.types.InputRecord;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The generators of the registered examples: deterministic, and every insert fits the query. */
class GeneratorsTest {

    @Test
    void ourGeneratorsMakeTheNumberOfInsertsAsked() {
        for (ExampleJob<?> job : List.of(new Ex10Job(), new TropicalJob(), new ProvenanceJob(), new FallbackJob())) {
            assertThat(job.generator(new GeneratorSettings(1_234, 0.5, 1)).count())
                    .as(job.name())
                    .isEqualTo(1_234);
        }
    }

    @Test
    void everyInsertFitsItsQueryAndRepeats() {
        for (ExampleJob<?> job : ExampleJobs.all()) {
            check(job);
        }
    }

    private static <T> void check(ExampleJob<T> job) {
        ConjunctiveQuery q = QueryParser.parse(job.query());
        GeneratorSettings settings = new GeneratorSettings(2_000, 1.0, 5);
        InsertGenerator<T> a = job.generator(settings);
        InsertGenerator<T> b = job.generator(settings);
        Set<String> relations = new HashSet<>();
        assertThat(a.count()).as(job.name()).isPositive();
        for (long i = 0; i < a.count(); i++) {
            InputRecord<T> r = a.record(i);
            assertThat(b.record(i)).as(job.name() + " insert " + i).isEqualTo(r);
            assertThat(q.arityOf(r.relation()))
                    .as(job.name() + " " + r)
                    .isEqualTo(r.tuple().arity());
            assertThat(r.payload()).isInstanceOf(job.semiring().payloadClass());
            assertThat(job.semiring().isZero(r.payload())).isFalse();
            relations.add(r.relation());
        }
        assertThat(relations).as(job.name()).containsExactlyInAnyOrderElementsOf(q.relations());
        InsertGenerator<T> otherSeed = job.generator(new GeneratorSettings(2_000, 1.0, 6));
        boolean differs = false;
        for (long i = 0; i < 10; i++) {
            differs |= !otherSeed.record(i).equals(a.record(i));
        }
        assertThat(differs).as(job.name() + ": another seed, another stream").isTrue();
    }

    /** The examples' streams stay those of earlier versions (checksums taken before the generators shared code). */
    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "ex10, -5745173150418071789",
        "tropical, 253303838418849179",
        "provenance, -3092418944833695549",
        "fallback, -7553265004807406821"
    })
    void streamsAreThoseOfEarlierVersions(String name, long expected) {
        assertThat(checksum(ExampleJobs.byName(name), new GeneratorSettings(3_000, 1.0, 11)))
                .as("checksum of %s", name)
                .isEqualTo(expected);
    }

    private static <T> long checksum(ExampleJob<T> job, GeneratorSettings settings) {
        InsertGenerator<T> g = job.generator(settings);
        long h = 1;
        for (long i = 0; i < g.count(); i++) {
            InputRecord<T> r = g.record(i);
            h = 31 * h + r.relation().hashCode();
            for (int j = 0; j < r.tuple().arity(); j++) {
                h = 31 * h + r.tuple().get(j).hashCode();
            }
            h = 31 * h + job.semiring().format(r.payload()).hashCode();
            h = 31 * h + r.origin().hashCode();
        }
        return h;
    }

    @Test
    void registryNamesAreUniqueAndTheDefaultIsRegistered() {
        assertThat(ExampleJobs.names())
                .doesNotHaveDuplicates()
                .contains(ExampleJobs.DEFAULT)
                .contains("ex10", "tropical", "provenance", "fallback")
                .first()
                .isEqualTo("ex10");
        assertThatThrownBy(() -> ExampleJobs.byName("nope"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown example 'nope'; the examples are: ex10, tropical");
    }

    @Test
    void settingsRejectBadValues() {
        assertThatThrownBy(() -> new GeneratorSettings(0, 0, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("inserts must be >= 1");
        assertThatThrownBy(() -> new GeneratorSettings(10, -0.5, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("skew must be");
    }
}
