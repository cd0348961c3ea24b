package io.flinkivm.flink;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.semiring.NaturalSemiring;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.core.testing.Insert;
import io.flinkivm.core.testing.RandomStreams;
import io.flinkivm.core.testing.TestSemirings;
import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Savepoints of an earlier state layout are refused, never misread. The fixtures under
 * {@code src/test/resources/savepoints/layout-1-<backend>} are canonical savepoints of {@link #QUERY}'s
 * job taken by flink-ivm before its compact state layout (tuples with a tag byte and 8-byte longs, 8-byte
 * natural payloads, a join record of three header bytes), and {@code layout-2-rocksdb} one of the compact
 * layout before join records stored their links without the values of the list's key (join record
 * format 2) on each backend (the heap backend's savepoint holds the sink's managed states too, empty,
 * with their serializers' formats), and {@code layout-3-<backend>} one of tuple format 4, before SQL
 * values kept their type in tuples (the same bytes, other values: refused with the reason, see
 * {@link #aSavepointOfTupleFormatFourIsRefusedWithTheReason}); {@link #writeFixtures} wrote them (run it
 * with {@code -Dflinkivm.savepoint-fixtures=DIR} to write the current layout's). Restoring one into the
 * current job fails with Flink's incompatibility of the state serializers or flink-ivm's own version
 * check of its in-memory state, before any of its bytes is read as the new layout.
 */
class SavepointFormatITCase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(2)
            .build());

    static final Semiring<Long> K = NaturalSemiring.INSTANCE;
    static final String QUERY = SavepointRescaleITCase.KEYED;
    static final int INSERTS = 600;
    static final int PARALLELISM = 2;
    static final int STOP_AT = 150;
    static final long SNAPSHOT_EVERY = 25;

    static MaintenancePlan plan() {
        return Planner.plan(QueryParser.parse(QUERY), K);
    }

    static IvmTestJobs.Partitioned<Long> input() {
        List<Insert<Long>> stream = RandomStreams.generate(
                plan().query(),
                K,
                new Random(19),
                INSERTS,
                new RandomStreams.Domain(6, RandomStreams.ValueType.LONG),
                TestSemirings.payloads(K));
        return IvmTestJobs.Partitioned.roundRobin(stream, PARALLELISM);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"layout-1-rocksdb", "layout-1-hashmap", "layout-2-rocksdb", "layout-2-hashmap"})
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aSavepointOfAnEarlierLayoutIsRefused(String name) throws Exception {
        Path savepoint = fixture(name);
        String backend = name.substring(name.lastIndexOf('-') + 1);
        String run = "savepoint format " + name;
        JobClient job =
                execute(backend, RateLimiterStrategy.noOp(), savepoint.toUri().toString(), run);
        Throwable failure = org.assertj.core.api.Assertions.catchThrowable(
                () -> job.getJobExecutionResult().get());
        assertThat(failure).as("the restore fails").isNotNull();
        StringBuilder messages = new StringBuilder();
        for (Throwable t = failure; t != null; t = t.getCause()) {
            messages.append(t).append('\n');
        }
        System.err.println("REFUSAL " + backend + ": " + messages);
        assertThat(messages.toString())
                .containsAnyOf(
                        "must be compatible",
                        "must not be incompatible",
                        "incompatible",
                        "cannot be read (this is",
                        "cannot be read: this flink-ivm reads");
        assertThat(IvmTestJobs.SEEN.get(run))
                .as("no snapshot came out of the misread state")
                .isEmpty();
    }

    /**
     * A savepoint of tuple format 4 (the same bytes as format 5, but SQL dates, timestamps and decimals
     * as text) is refused on either backend with the message that says so, never read.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"layout-3-rocksdb", "layout-3-hashmap"})
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aSavepointOfTupleFormatFourIsRefusedWithTheReason(String name) throws Exception {
        String backend = name.substring(name.lastIndexOf('-') + 1);
        String run = "savepoint format " + name;
        JobClient job = execute(
                backend, RateLimiterStrategy.noOp(), fixture(name).toUri().toString(), run);
        Throwable failure = org.assertj.core.api.Assertions.catchThrowable(
                () -> job.getJobExecutionResult().get());
        assertThat(failure).as("the restore fails").isNotNull();
        StringBuilder messages = new StringBuilder();
        for (Throwable t = failure; t != null; t = t.getCause()) {
            messages.append(t).append('\n');
        }
        assertThat(messages.toString())
                .contains("flink-ivm state in tuple format 4 cannot be read: this flink-ivm reads and writes format 5"
                        + " (since tuple format 5 SQL values keep their type")
                .contains("Before 1.0 state is not migrated");
        assertThat(IvmTestJobs.SEEN.get(run))
                .as("no snapshot came out of the old state")
                .isEmpty();
    }

    /** Writes the current layout's fixtures into the directory {@code -Dflinkivm.savepoint-fixtures} names. */
    @Test
    @EnabledIfSystemProperty(named = "flinkivm.savepoint-fixtures", matches = ".+")
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void writeFixtures(@TempDir Path tmp) throws Exception {
        Path out = Path.of(System.getProperty("flinkivm.savepoint-fixtures"));
        for (String backend : List.of("rocksdb", "hashmap")) {
            String run = "savepoint fixture " + backend;
            JobClient job = execute(backend, RateLimiterStrategy.perCheckpoint(STOP_AT * PARALLELISM), null, run);
            long last = (long) PARALLELISM * (STOP_AT / SNAPSHOT_EVERY * SNAPSHOT_EVERY);
            while (IvmTestJobs.SEEN.get(run).stream()
                            .filter(s -> s.record().isEnd() && s.record().snapshotId() == last)
                            .count()
                    < FlinkIvmITCase.sinkParts(plan(), PARALLELISM)) {
                Thread.sleep(20);
            }
            String savepoint = job.stopWithSavepoint(
                            false, tmp.resolve(backend).toUri().toString(), SavepointFormatType.CANONICAL)
                    .get(60, TimeUnit.SECONDS);
            job.getJobExecutionResult().get();
            Path from = Path.of(java.net.URI.create(savepoint));
            Path to = out.resolve("layout-" + backend);
            Files.createDirectories(to);
            try (Stream<Path> files = Files.list(from)) {
                for (Path f : files.toList()) {
                    Files.copy(f, to.resolve(f.getFileName()), StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

    private static Path fixture(String name) throws IOException, URISyntaxException {
        URL url = SavepointFormatITCase.class.getResource("/savepoints/" + name + "/_metadata");
        if (url == null) {
            throw new IOException("missing test fixture savepoints/" + name);
        }
        return Path.of(url.toURI()).getParent();
    }

    private static JobClient execute(String backend, RateLimiterStrategy<?> rate, String savepoint, String run)
            throws Exception {
        Configuration c = new Configuration();
        c.setString("state.backend.type", backend);
        c.setString("pipeline.generic-types", "false");
        c.setString("parallelism.default", String.valueOf(PARALLELISM));
        c.setString("restart-strategy.type", "none");
        if (savepoint != null) {
            c.setString("execution.state-recovery.path", savepoint);
            c.setString("execution.state-recovery.ignore-unclaimed-state", "true");
        }
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(c);
        IvmJob<Long> job = FlinkIvm.maintain(
                IvmTestJobs.source(env, input(), FlinkIvm.inputType(K), rate)
                        .setParallelism(PARALLELISM)
                        .uid(savepoint == null ? "test-inserts" : "test-inserts-not-restored"),
                plan(),
                K,
                IvmOptions.defaults().withSnapshotEvery(SNAPSHOT_EVERY));
        IvmTestJobs.record(job.results(), run);
        return env.executeAsync(run);
    }
}
