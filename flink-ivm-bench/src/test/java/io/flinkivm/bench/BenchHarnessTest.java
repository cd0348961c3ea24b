package io.flinkivm.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.core.engine.Engines;
import io.flinkivm.core.engine.IvmEngine;
import io.flinkivm.core.engine.maps.StateCounts;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.NaturalSemiring;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The harness end to end on tiny streams: one system of each kind, results.csv and the printed summary. */
class BenchHarnessTest {

    @TempDir
    Path dir;

    @Test
    void writesOneCsvRowPerSystemDistributionAndSize() throws Exception {
        Workload w = new Example10Workload();
        List<Suite> suites = List.of(
                new CoreSuite(w, List.of(CoreEngineSystem.pHierarchical(), new HashMapPeer())),
                new FlinkSuite(
                        w,
                        List.of(
                                new FlinkIvmSystem("hashmap"),
                                new FlinkIvmSystem("rocksdb"),
                                new FlinkSqlSystem(),
                                FlinkSqlSystem.onRocksDb(),
                                new TrivialKeyedSystem())));
        BenchSettings settings = new BenchSettings(
                false,
                7,
                1,
                1,
                Duration.ofSeconds(60),
                Duration.ofSeconds(120),
                List.of(200),
                List.of(Distribution.ZIPF),
                false);
        StringWriter printed = new StringWriter();

        List<Measurement> ms = BenchCommand.run(suites, settings, dir, new PrintWriter(printed));

        List<String> lines = Files.readAllLines(dir.resolve("results.csv"), StandardCharsets.UTF_8);
        assertThat(lines.get(0))
                .isEqualTo(
                        "query,system,distribution,n,inserts_per_second,ns_per_insert,state_size,state_unit,measure,cpu_ns_per_insert,"
                                + "state_ops_per_insert,parallelism,serial_share,max_subtask_imbalance,"
                                + "task_cpu_ns_per_insert,runs,object_reuse");
        // p-hierarchical, its enumeration (iterator and cursor) and the list read, hash-map, then five Flink systems.
        assertThat(lines).hasSize(1 + 4 + 1 + 5).hasSize(1 + ms.size());
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split(",", -1);
            assertThat(f).as(line).hasSize(17);
            assertThat(f[11]).as(line).isEqualTo("1");
            assertThat(f[0]).isEqualTo("ex10");
            assertThat(f[1])
                    .isIn(
                            "p-hierarchical",
                            "p-hierarchical(cursor)",
                            "in-memory-list(p-hierarchical)",
                            "hash-map",
                            "flink-ivm-heap",
                            "flink-ivm-rocksdb",
                            "flink-sql",
                            "flink-sql-rocksdb",
                            "trivial-keyed");
            assertThat(f[8]).isIn("insert", "enumerate");
            assertThat(f[2]).isEqualTo("zipf-1.1");
            assertThat(f[3]).isEqualTo("200");
            assertThat(Double.parseDouble(f[4])).as(line).isPositive();
            assertThat(Double.parseDouble(f[5])).as(line).isPositive();
        }
        assertThat(lines)
                .anyMatch(l -> l.startsWith("ex10,flink-ivm-heap,zipf-1.1,200,")
                        && l.contains(",entries (core engine) p-hierarchical,insert,"));
        assertThat(lines).anyMatch(l -> l.startsWith("ex10,flink-sql,zipf-1.1,200,") && l.contains(",,n/a,insert,"));
        String rocks = lines.stream()
                .filter(l -> l.startsWith("ex10,flink-ivm-rocksdb,"))
                .findFirst()
                .orElseThrow();
        assertThat(rocks).contains("," + FlinkIvmSystem.ROCKSDB_BYTES + ",insert,");
        assertThat(Long.parseLong(rocks.split(",")[6])).isPositive();
        String sqlRocks = lines.stream()
                .filter(l -> l.startsWith("ex10,flink-sql-rocksdb,"))
                .findFirst()
                .orElseThrow();
        assertThat(sqlRocks).contains("," + FlinkIvmSystem.ROCKSDB_BYTES + ",insert,");
        assertThat(Long.parseLong(sqlRocks.split(",")[6])).isPositive();
        // hash-map: one upsert per insert, its state the distinct (relation, tuple) pairs of the stream.
        InsertStream stream = w.generate(200, Distribution.ZIPF, 7);
        java.util.Set<String> distinct = new java.util.HashSet<>();
        for (int i = 0; i < stream.size(); i++) {
            distinct.add(stream.relation(i) + stream.tuple(i));
        }
        String hashMap = lines.stream()
                .filter(l -> l.startsWith("ex10,hash-map,zipf-1.1,200,"))
                .findFirst()
                .orElseThrow();
        assertThat(hashMap).contains(",entries,insert,");
        assertThat(Long.parseLong(hashMap.split(",")[6])).isEqualTo(distinct.size());
        String enumerated = lines.stream()
                .filter(l -> l.startsWith("ex10,p-hierarchical,") && l.contains(",enumerate,"))
                .findFirst()
                .orElseThrow();
        assertThat(Double.parseDouble(enumerated.split(",")[4])).isPositive();
        assertThat(enumerated.split(",", -1)[10]).isEmpty();
        assertThat(hashMap.split(",", -1)[10]).isEqualTo("1.000");
        String pHierarchical = lines.stream()
                .filter(l -> l.startsWith("ex10,p-hierarchical,") && l.contains(",insert,"))
                .findFirst()
                .orElseThrow();
        assertThat(Double.parseDouble(pHierarchical.split(",", -1)[10])).isPositive();
        // Core rows: one thread, no task threads; Flink rows at P = 1: every chain is serial, none can be uneven.
        assertThat(lines.subList(1, lines.size()))
                .filteredOn(l -> !l.contains(",flink-") && !l.contains(",trivial-"))
                .allMatch(l -> l.matches(".*,1,,,,\\d+,off"));
        assertThat(lines)
                .filteredOn(l -> l.startsWith("ex10,flink-") || l.startsWith("ex10,trivial-"))
                .hasSize(5)
                .allMatch(l -> l.split(",", -1)[10].isEmpty()
                        && l.contains(",1,1.000,,")
                        && Double.parseDouble(l.split(",", -1)[14]) > 0
                        && l.endsWith(",1,off"));
        assertThat(printed.toString())
                .contains(
                        "Core II",
                        "ratio p-hierarchical/hash-map (ns per insert):",
                        "hash-map: not a query engine",
                        "Flink operators",
                        "result = p-hierarchical",
                        "estimate-num-keys",
                        "ratio flink-ivm-heap/flink-sql (inserts per second):",
                        "ratio flink-ivm-rocksdb/flink-sql-rocksdb",
                        "ratio flink-ivm-heap/trivial-keyed",
                        "2 keyBy hops",
                        "suite core:",
                        "suite flink:");
    }

    @Test
    void aFlinkSystemStoppedAtItsCapIsNotRunAtLargerSizesAtThatParallelism() throws Exception {
        Workload w = new Example10Workload();
        // A cap of 1 ms stops every job at the first size; only the core engine's reference completes.
        BenchSettings settings = new BenchSettings(
                        false,
                        7,
                        1,
                        1,
                        Duration.ofSeconds(60),
                        Duration.ofMillis(1),
                        List.of(100, 200),
                        List.of(Distribution.UNIFORM),
                        false)
                .withParallelisms(List.of(1, 2));
        StringWriter printed = new StringWriter();

        List<Measurement> ms = BenchCommand.run(
                List.of(new FlinkSuite(w, List.of(new FlinkSqlSystem(), new TrivialKeyedSystem()))),
                settings,
                dir,
                new PrintWriter(printed));

        assertThat(ms)
                .extracting(m -> m.system() + " " + m.parallelism())
                .containsExactly("flink-sql 1", "flink-sql 2", "trivial-keyed 1", "trivial-keyed 2");
        assertThat(ms).allSatisfy(m -> {
            assertThat(m.n()).isEqualTo(100);
            assertThat(m.nsPerInsert().kind()).isEqualTo(Bounded.Kind.AT_LEAST);
        });
        assertThat(printed.toString())
                .contains(
                        "flink-sql ex10 uniform n=200: not run, it was stopped at its cap at n=100",
                        "flink-sql P=2 ex10 uniform n=200: not run, it was stopped at its cap at n=100",
                        "trivial-keyed ex10 uniform n=200: not run, it was stopped at its cap at n=100",
                        "trivial-keyed P=2 ex10 uniform n=200: not run, it was stopped at its cap at n=100");
        assertThat(Files.readAllLines(dir.resolve("results.csv"), StandardCharsets.UTF_8))
                .hasSize(1 + 4);
    }

    @Test
    void theCoreSuiteReportsStateOperationsPerInsertFromACountingRun() throws Exception {
        Workload w = new Example10Workload();
        List<Suite> suites = List.of(new CoreSuite(
                w, List.of(CoreEngineSystem.pHierarchical(), CoreEngineSystem.fallback(), new HashMapPeer())));
        BenchSettings settings = new BenchSettings(
                false,
                7,
                1,
                1,
                Duration.ofSeconds(60),
                Duration.ofSeconds(120),
                List.of(300, 3_000),
                List.of(Distribution.UNIFORM),
                false);
        StringWriter printed = new StringWriter();

        BenchCommand.run(suites, settings, dir, new PrintWriter(printed));

        List<String> lines = Files.readAllLines(dir.resolve("results.csv"), StandardCharsets.UTF_8);
        for (int n : List.of(300, 3_000)) {
            InsertStream stream = w.generate(n, Distribution.UNIFORM, 7);
            for (CoreEngineSystem s : List.of(CoreEngineSystem.pHierarchical(), CoreEngineSystem.fallback())) {
                // The same count, independently: an engine that counts, over the same stream.
                StateCounts counts = new StateCounts();
                IvmEngine<Long> engine = Engines.create(s.plan(w), NaturalSemiring.INSTANCE, counts);
                for (int i = 0; i < n; i++) {
                    engine.insert(stream.relation(i), stream.tuple(i), stream.payload(i));
                }
                String row = lines.stream()
                        .filter(l -> l.startsWith("ex10," + s.name() + ",uniform," + n + ",") && l.contains(",insert,"))
                        .findFirst()
                        .orElseThrow();
                assertThat(Double.parseDouble(row.split(",", -1)[10]))
                        .as(row)
                        .isCloseTo((double) counts.operations() / n, org.assertj.core.data.Offset.offset(0.001));
            }
        }
        assertThat(printed.toString())
                .contains(
                        "State operations per insert",
                        "state operations: ",
                        "(untimed run)",
                        "ops/ins",
                        "op/ups (cpu)");
        String table = printed.toString().substring(printed.toString().indexOf("State operations per insert"));
        // One row per counted system and n (not hash-map: its one upsert is the unit).
        assertThat(table.lines().filter(l -> l.startsWith("ex10 ")).toList())
                .as(table)
                .hasSize(4)
                .allMatch(l -> l.contains("p-hierarchical") || l.contains("fallback"));
    }

    @Test
    void aCoreSystemStoppedAtItsCapIsNotRunAtLargerSizes() throws Exception {
        Workload w = new Example10Workload();
        // A zero cap stops the fallback at its first check of the clock (as in aCappedRunIsReportedAsABound).
        BenchSettings settings = new BenchSettings(
                false,
                7,
                1,
                1,
                Duration.ZERO,
                Duration.ofSeconds(60),
                List.of(5_000, 10_000),
                List.of(Distribution.ZIPF),
                false);
        StringWriter printed = new StringWriter();

        List<Measurement> ms = BenchCommand.run(
                List.of(new CoreSuite(w, List.of(CoreEngineSystem.fallback()))),
                settings,
                dir,
                new PrintWriter(printed));

        assertThat(ms).singleElement().satisfies(m -> {
            assertThat(m.n()).isEqualTo(5_000);
            assertThat(m.nsPerInsert().kind()).isEqualTo(Bounded.Kind.AT_LEAST);
        });
        assertThat(printed.toString())
                .contains("fallback ex10 zipf-1.1 n=10000: not run, it was stopped at its cap at n=5000");
    }

    @Test
    void aFlinkMeasurementRunsEveryRepetitionAskedForWhatEverItTakes() throws Exception {
        StringWriter printed = new StringWriter();
        try (ResultsCsv csv = new ResultsCsv(dir)) {
            Harness h = new Harness(new PrintWriter(printed), csv);
            long[] elapsed = {5_000_000_000L, 3_000_000_000L, 4_000_000_000L};
            int[] runs = {0};
            Harness.Run run = () -> {
                long ns = elapsed[runs[0]++];
                return new RunResult(ns, ns, true, 1000, -1, "", 1, 0, "");
            };
            // The core suite's budget stops after the first run; a Flink measurement (no budget) does all three.
            assertThat(h.measure("q", "s", "d", 1000, 3, Duration.ZERO, Duration.ofSeconds(60), run)
                            .measurement()
                            .runs())
                    .isEqualTo(1);
            runs[0] = 0;
            Harness.Outcome all = h.measure("q", "s", "d", 1000, 3, null, Duration.ofSeconds(60), run);
            assertThat(all.measurement().runs()).isEqualTo(3);
            assertThat(all.measurement().seconds()).isEqualTo(4.0);
        }
    }

    @Test
    void aCappedRunIsReportedAsABound() throws Exception {
        Workload w = new Example10Workload();
        InsertStream stream = w.generate(5_000, Distribution.ZIPF, 1);
        StringWriter printed = new StringWriter();
        try (ResultsCsv csv = new ResultsCsv(dir)) {
            Harness h = new Harness(new PrintWriter(printed), csv);

            Harness.Outcome o =
                    h.measure(CoreEngineSystem.fallback(), w, stream, 3, Harness.REPEAT_BUDGET, Duration.ZERO);
            h.record(o.measurement());

            assertThat(o.last().completed()).isFalse();
            assertThat(o.measurement().nsPerInsert().kind()).isEqualTo(Bounded.Kind.AT_LEAST);
            assertThat(o.measurement().insertsPerSecond().kind()).isEqualTo(Bounded.Kind.AT_MOST);
            assertThat(o.measurement().runs()).isEqualTo(1);
        }
        List<String> lines = Files.readAllLines(dir.resolve("results.csv"), StandardCharsets.UTF_8);
        assertThat(lines.get(1))
                .startsWith("ex10,fallback,zipf-1.1,5000,<")
                .contains(",>")
                .contains(",insert,>");
    }

    @Test
    void aResultWhosePayloadsExceed64BitsIsTimedButNotEnumerated() {
        // Every view stays in range (R4's sum is 2^62, R5's is 4), but the result tuple's payload,
        // the product of its root views' payloads, needs 64 bits and more.
        Workload w = new Example10Workload();
        InsertStream stream = new InsertStream(
                new String[] {"R1", "R2", "R3", "R4", "R5"},
                new Tuple[] {
                    Tuple.of(1L, 2L, 3L, 4L),
                    Tuple.of(1L, 2L, 3L, 5L),
                    Tuple.of(1L, 2L, 6L),
                    Tuple.of(7L),
                    Tuple.of(1L, 7L, 8L)
                },
                new Long[] {1L, 1L, 1L, 1L << 62, 4L},
                Distribution.UNIFORM,
                0);
        CoreEngineSystem system = CoreEngineSystem.pHierarchical();

        RunResult r = system.run(w, stream, Duration.ofMinutes(1));

        assertThat(r.completed()).isTrue();
        assertThat(r.processed()).isEqualTo(5);
        assertThat(r.resultSize()).isEqualTo(-1);
        assertThat(r.note()).contains("result payloads exceed 64 bits", "4611686018427387904", "not enumerated");
        assertThat(system.measureEnumeration()).isNull();
    }

    @Test
    void changelogWorkloadsAreCheckedAgainstTheCoreEngineOverTheIntegers() throws Exception {
        BenchSettings settings = uniform(List.of(400, 4_000));
        StringWriter printed = new StringWriter();

        List<Measurement> ms = BenchCommand.run(
                List.of(new FlinkSuite(
                        Workloads.changes(),
                        List.of(new FlinkIvmSystem("hashmap"), new FlinkSqlSystem(), FlinkSqlSystem.miniBatch()))),
                settings,
                dir,
                new PrintWriter(printed));

        assertThat(ms).hasSize(2 * 2 * 3).allSatisfy(m -> assertThat(m.note()).contains("result = core "));
        assertThat(ms)
                .filteredOn(m -> m.system().equals("flink-ivm-heap"))
                .allSatisfy(m -> assertThat(m.stateOpsPerInsert()).isPositive());
        assertThat(ms)
                .filteredOn(m -> m.system().startsWith("flink-sql"))
                .allSatisfy(m -> assertThat(m.stateOpsPerInsert()).isNegative());
        List<String> lines = Files.readAllLines(dir.resolve("results.csv"), StandardCharsets.UTF_8);
        assertThat(lines)
                .anyMatch(l -> l.startsWith("star-changes,flink-ivm-heap,uniform,4000,"))
                .anyMatch(l -> l.startsWith("tpch-changes,flink-sql-minibatch,tpch,400,"));
        assertThat(printed.toString())
                .contains(
                        "result = core Q_HIERARCHICAL engine over the integers",
                        "result = core FALLBACK_DELTA_JOIN engine over the integers",
                        "state operations per change",
                        "slope of state operations per insert or change against n",
                        "flink-ivm-heap: uniform ",
                        "flink-ivm-heap: tpch ");
    }

    @Test
    void changelogWorkloadsAtParallelismTwoAreCheckedAgainstTheCoreEngineOnHeapAndRocksDb() throws Exception {
        // At P = 2 a source that gave each subtask a range of the changes would let a row's delete overtake
        // its insert: flink-ivm-heap then counted 310 dead letters on star-changes, and the bench stopped.
        // No counting runs of the RocksDB systems (countUpTo 0): what is checked here is the result.
        BenchSettings settings = uniform(List.of(4_000), 0, List.of(2));
        StringWriter printed = new StringWriter();

        List<Measurement> ms = BenchCommand.run(
                List.of(new FlinkSuite(
                        Workloads.changes(),
                        List.of(
                                new FlinkIvmSystem("hashmap"),
                                new FlinkIvmSystem("rocksdb"),
                                new FlinkSqlSystem(),
                                FlinkSqlSystem.onRocksDb()))),
                settings,
                dir,
                new PrintWriter(printed));

        assertThat(ms)
                .extracting(m -> m.query() + " " + m.system() + " " + m.parallelism())
                .containsExactlyInAnyOrder(
                        "star-changes flink-ivm-heap 2",
                        "star-changes flink-ivm-rocksdb 2",
                        "star-changes flink-sql 2",
                        "star-changes flink-sql-rocksdb 2",
                        "tpch-changes flink-ivm-heap 2",
                        "tpch-changes flink-ivm-rocksdb 2",
                        "tpch-changes flink-sql 2",
                        "tpch-changes flink-sql-rocksdb 2");
        assertThat(ms).allSatisfy(m -> assertThat(m.note()).contains("result = core "));
        assertThat(printed.toString())
                .contains(
                        "result = core Q_HIERARCHICAL engine over the integers",
                        "result = core FALLBACK_DELTA_JOIN engine over the integers",
                        "a changelog's by row")
                .doesNotContain("runs at P = 1 only");
    }

    @Test
    void aSystemThatTakesDeletesForInsertsAbortsTheBench() throws Exception {
        BenchSettings settings = uniform(List.of(400));
        FlinkSqlSystem sql = new FlinkSqlSystem();
        FlinkSystem insertsOnly = new FlinkSystem() {
            @Override
            public String name() {
                return "inserts-only";
            }

            @Override
            public String describe(Workload workload) {
                return "Flink SQL reading every change as an insert";
            }

            @Override
            public RunResult run(Workload workload, InsertStream stream, Duration cap, int parallelism)
                    throws Exception {
                String[] relations = new String[stream.size()];
                io.flinkivm.core.query.Tuple[] tuples = new io.flinkivm.core.query.Tuple[stream.size()];
                Long[] payloads = new Long[stream.size()];
                for (int i = 0; i < stream.size(); i++) {
                    relations[i] = stream.relation(i);
                    tuples[i] = stream.tuple(i);
                    payloads[i] = stream.payload(i);
                }
                InsertStream inserts =
                        new InsertStream(relations, tuples, payloads, stream.distribution(), stream.seed());
                return sql.run(workload, inserts, cap, parallelism);
            }
        };

        assertThatThrownBy(() -> BenchCommand.run(
                        List.of(new FlinkSuite(Workloads.changes().get(0), List.of(insertsOnly))),
                        settings,
                        dir,
                        new PrintWriter(new StringWriter())))
                .isInstanceOf(BenchFailure.class)
                .hasMessageContaining("inserts-only on star-changes uniform n=400 ends with")
                .hasMessageContaining("core Q_HIERARCHICAL engine over the integers with");
    }

    /** One timed run per size (null: the suites' own), uniform keys, no warm-up, caps of 60 s (core) and 120 s (Flink). */
    static BenchSettings uniform(List<Integer> sizes) {
        return uniform(sizes, BenchSettings.DEFAULT_COUNT_UP_TO, List.of(1));
    }

    /** As {@link #uniform(List)}, with counting runs up to {@code countUpTo} and Flink jobs at {@code ps}. */
    static BenchSettings uniform(List<Integer> sizes, int countUpTo, List<Integer> ps) {
        return new BenchSettings(
                false,
                7,
                1,
                1,
                Duration.ofSeconds(60),
                Duration.ofSeconds(120),
                sizes,
                List.of(Distribution.UNIFORM),
                false,
                null,
                null,
                countUpTo,
                ps,
                0,
                false);
    }
}
