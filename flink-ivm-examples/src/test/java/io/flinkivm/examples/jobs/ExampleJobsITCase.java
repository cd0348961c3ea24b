package io.flinkivm.examples.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.engine.Engines;
import io.flinkivm.core.engine.IvmEngine;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.PlanKind;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.flink.types.InputRecord;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every registered example on Flink, small: it runs, reports, and its final result equals the core engine's. */
class ExampleJobsITCase {

    static Stream<Arguments> jobs() {
        return ExampleJobs.all().stream()
                .flatMap(j -> Stream.of(
                        Arguments.of(
                                j.name(),
                                0.0,
                                FlinkSettings.defaults()
                                        .withState(StateBackendKind.HEAP)
                                        .withParallelism(1)),
                        Arguments.of(
                                j.name(),
                                1.2,
                                FlinkSettings.defaults()
                                        .withState(StateBackendKind.ROCKSDB)
                                        .withParallelism(2))));
    }

    @ParameterizedTest(name = "{0} skew={1} {2}")
    @MethodSource("jobs")
    void finalResultEqualsTheCoreEngine(String name, double skew, FlinkSettings flink) throws Exception {
        check(ExampleJobs.byName(name), skew, flink);
    }

    private static <T> void check(ExampleJob<T> job, double skew, FlinkSettings flink) throws Exception {
        GeneratorSettings data = new GeneratorSettings(1_500, skew, 7);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();

        ExampleResult<T> r = ExampleRunner.run(job, data, flink, new PrintWriter(out), new PrintWriter(err));

        MaintenancePlan plan = Planner.plan(QueryParser.parse(job.query()), job.semiring());
        IvmEngine<T> core = Engines.create(plan, job.semiring());
        InsertGenerator<T> generator = job.generator(data);
        long n = generator.count();
        long every = (n + ExampleRunner.PROGRESS_LINES - 1) / ExampleRunner.PROGRESS_LINES;
        for (long i = 0; i < generator.count(); i++) {
            InputRecord<T> insert = generator.record(i);
            core.insert(insert.relation(), insert.tuple(), insert.payload());
        }
        Map<Tuple, T> expected = Rows.toMap(core.enumerate());
        assertThat(expected).as("a non-trivial result").isNotEmpty();
        assertThat(r.result()).isEqualTo(expected);
        assertThat(r.inserts()).isEqualTo(n);
        assertThat(r.deadLetters()).isZero();
        long lines = (n + every - 1) / every;
        // Each ingest subtask ends an epoch after every / p of its own inserts: with the generator's
        // splits balanced, about `lines` snapshots; a subtask that read more (a small stream's first
        // reader can take every split) ends more epochs, up to p times as many.
        int p = flink.parallelism() == null ? 1 : flink.parallelism();
        assertThat((long) r.snapshots()).isBetween(lines, lines * p + p - 1);
        assertThat(err.toString()).isEmpty();
        String text = out.toString();
        String total = ExampleRunner.count(n);
        assertThat(text)
                .contains(
                        "flink-ivm example '" + job.name() + "'",
                        "Data: " + total + " generated inserts",
                        plan.explain(),
                        String.format("after %12s inserts", ExampleRunner.count(p == 1 ? every : n)),
                        String.format("after %12s inserts", total),
                        "Done: " + total + " inserts",
                        "result: " + ExampleRunner.count(expected.size()) + " tuple");
        assertThat(text.lines().filter(l -> l.startsWith("  after ")).count()).isEqualTo(r.snapshots());
        String head = QueryParser.parse(job.query()).name();
        String summary = text.substring(text.indexOf("Done: "));
        assertThat(summary.lines().filter(l -> l.startsWith("  " + head + "(")).count())
                .isEqualTo(Math.min(ExampleRunner.SHOWN_ROWS, expected.size()));
        if (job.name().equals("fallback")) {
            assertThat(plan.kind()).isEqualTo(PlanKind.FALLBACK_DELTA_JOIN);
            assertThat(text).contains("Why:", "not p-hierarchical");
        } else {
            assertThat(plan.kind()).isEqualTo(PlanKind.P_HIERARCHICAL);
        }
    }
}
