package io.flinkivm.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.plan.Inputs;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.PlanKind;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.query.ChangeKind;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.IntegerRing;
import io.flinkivm.flink.FlinkIvm;
import io.flinkivm.flink.IvmJob;
import io.flinkivm.flink.IvmOptions;
import io.flinkivm.flink.OutputMode;
import io.flinkivm.flink.Snapshots;
import io.flinkivm.flink.source.PartitionedSource;
import io.flinkivm.flink.types.InputRecord;
import io.flinkivm.flink.types.ResultRecord;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * flink-ivm against Flink SQL on the same changelog, for the SQL subset COUNT(*) over joins grouped by
 * the head: tables of BIGINT columns fed through {@code fromChangelogStream} with random inserts,
 * deletes ({@code -D}) and updates ({@code -U}/{@code +U}) of live rows, each row with multiplicity 1,
 * and the same changes into a flink-ivm job over the integers (a row's payload is its multiplicity), at
 * parallelism 2. The final tables agree (a group whose count is back at zero is absent in both).
 */
class ChangelogSqlITCase {
    private static final int PARALLELISM = 2;

    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(PARALLELISM)
            .build());

    static List<Arguments> queries() {
        return List.of(
                Arguments.of(
                        "Q(A,C) :- R(A,B), S(A,C)",
                        "SELECT R.a, S.c, COUNT(*) FROM R JOIN S ON R.a = S.a GROUP BY R.a, S.c",
                        PlanKind.Q_HIERARCHICAL,
                        41_000L),
                Arguments.of(
                        "Q(A) :- R(A,B), S(A,C), T(A)",
                        "SELECT R.a, COUNT(*) FROM R, S, T WHERE R.a = S.a AND T.a = R.a GROUP BY R.a",
                        PlanKind.Q_HIERARCHICAL,
                        41_001L),
                Arguments.of(
                        "Q(A,C) :- R(A,B), S(B,C)",
                        "SELECT R.a, S.c, COUNT(*) FROM R JOIN S ON R.b = S.b GROUP BY R.a, S.c",
                        PlanKind.FALLBACK_DELTA_JOIN,
                        41_002L),
                Arguments.of(
                        "Q(A) :- R(A,B), S(B,C), T(C,A)",
                        "SELECT R.a, COUNT(*) FROM R, S, T WHERE R.b = S.b AND S.c = T.c AND T.a = R.a GROUP BY R.a",
                        PlanKind.FALLBACK_DELTA_JOIN,
                        41_003L));
    }

    /** One change of a table row. */
    record Change(ChangeKind kind, String relation, long[] row) {}

    @ParameterizedTest(name = "{0}")
    @MethodSource("queries")
    void flinkIvmAgreesWithFlinkSql(String datalog, String sql, PlanKind kind, long seed) throws Exception {
        ConjunctiveQuery q = QueryParser.parse(datalog);
        List<Change> changes = generate(q, new Random(seed));
        IntegerRing z = IntegerRing.INSTANCE;
        MaintenancePlan plan = Planner.plan(q, z, Planner.Strategy.AUTO, Inputs.changelog(q.relations()));
        assertThat(plan.kind()).isEqualTo(kind);

        Configuration config = new Configuration();
        config.setString("parallelism.default", String.valueOf(PARALLELISM));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(config);
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        for (String relation : q.relations()) {
            int arity = q.arityOf(relation);
            List<Row> rows = new ArrayList<>();
            String[] names = new String[arity];
            // Columns named after the variables of the relation's atom, as the SQL text uses them.
            List<String> variables = q.body().stream()
                    .filter(atom -> atom.relation().equals(relation))
                    .findFirst()
                    .orElseThrow()
                    .variables();
            for (int i = 0; i < arity; i++) {
                names[i] = variables.get(i).toLowerCase(Locale.ROOT);
            }
            for (Change c : changes) {
                if (c.relation().equals(relation)) {
                    Row r = Row.withNames(rowKind(c.kind()));
                    for (int i = 0; i < arity; i++) {
                        r.setField(names[i], c.row()[i]);
                    }
                    rows.add(r);
                }
            }
            TypeInformation<?>[] types = new TypeInformation<?>[arity];
            Arrays.fill(types, Types.LONG);
            DataStream<Row> stream =
                    env.fromData(rows, Types.ROW_NAMED(names, types)).setParallelism(1);
            tEnv.createTemporaryView(relation, tEnv.fromChangelogStream(stream));
        }
        List<List<InputRecord<Long>>> splits = new ArrayList<>();
        for (int p = 0; p < PARALLELISM; p++) {
            splits.add(new ArrayList<>());
        }
        for (Change c : changes) {
            Object[] values = new Object[c.row().length];
            for (int i = 0; i < values.length; i++) {
                values[i] = c.row()[i];
            }
            Tuple t = Tuple.wrap(values);
            splits.get(Math.floorMod(c.relation().hashCode() * 31 + t.hashCode(), PARALLELISM))
                    .add(InputRecord.change(c.kind(), c.relation(), t, 1L, null));
        }
        DataStream<InputRecord<Long>> input = env.fromSource(
                        PartitionedSource.of(splits, FlinkIvm.inputType(z)),
                        WatermarkStrategy.noWatermarks(),
                        "changes")
                .setParallelism(PARALLELISM);
        IvmJob<Long> job = FlinkIvm.maintain(
                input,
                plan,
                z,
                IvmOptions.defaults().withOutputMode(OutputMode.CHANGELOG).withSnapshotEvery(9));
        List<ResultRecord<Long>> ivm = new ArrayList<>();
        Map<List<Long>, Long> flinkSql = new HashMap<>();
        try (CloseableIterator<ResultRecord<Long>> ivmRows = job.results().collectAsync();
                CloseableIterator<Row> sqlRows =
                        tEnv.toChangelogStream(tEnv.sqlQuery(sql)).collectAsync()) {
            env.execute("changelog vs Flink SQL: " + datalog);
            ivmRows.forEachRemaining(ivm::add);
            sqlRows.forEachRemaining(r -> {
                List<Long> key = new ArrayList<>();
                for (int i = 0; i < r.getArity() - 1; i++) {
                    key.add((Long) r.getField(i));
                }
                long count = (Long) r.getField(r.getArity() - 1);
                if (r.getKind() == RowKind.INSERT || r.getKind() == RowKind.UPDATE_AFTER) {
                    flinkSql.put(key, count);
                } else if (r.getKind() == RowKind.DELETE) {
                    flinkSql.remove(key);
                }
            });
        }
        flinkSql.values().removeIf(c -> c == 0);
        Map<List<Long>, Long> flinkIvm = new HashMap<>();
        Snapshots.changelogStates(ivm, job.results().getParallelism())
                .lastEntry()
                .getValue()
                .forEach((t, p) -> {
                    List<Long> key = new ArrayList<>();
                    for (int i = 0; i < t.arity(); i++) {
                        key.add((Long) t.get(i));
                    }
                    flinkIvm.put(key, p);
                });
        assertThat(flinkIvm).as(datalog + " vs " + sql).isEqualTo(flinkSql).isNotEmpty();
    }

    private static RowKind rowKind(ChangeKind kind) {
        return switch (kind) {
            case INSERT -> RowKind.INSERT;
            case DELETE -> RowKind.DELETE;
            case UPDATE_BEFORE -> RowKind.UPDATE_BEFORE;
            case UPDATE_AFTER -> RowKind.UPDATE_AFTER;
        };
    }

    /** Valid changes only (Flink SQL trusts its changelog): a delete or -U takes one copy of a live row. */
    private static List<Change> generate(ConjunctiveQuery q, Random r) {
        Map<String, List<long[]>> live = new HashMap<>();
        List<Change> out = new ArrayList<>();
        List<String> relations = q.relations();
        for (int step = 0; step < 300; step++) {
            String rel = relations.get(r.nextInt(relations.size()));
            List<long[]> rows = live.computeIfAbsent(rel, k -> new ArrayList<>());
            int op = r.nextInt(10);
            if (op < 5 || rows.isEmpty()) {
                long[] row = randomRow(q.arityOf(rel), r);
                rows.add(row);
                out.add(new Change(ChangeKind.INSERT, rel, row));
            } else if (op < 7) {
                out.add(new Change(ChangeKind.DELETE, rel, rows.remove(r.nextInt(rows.size()))));
            } else {
                out.add(new Change(ChangeKind.UPDATE_BEFORE, rel, rows.remove(r.nextInt(rows.size()))));
                long[] row = randomRow(q.arityOf(rel), r);
                rows.add(row);
                out.add(new Change(ChangeKind.UPDATE_AFTER, rel, row));
            }
        }
        return out;
    }

    private static long[] randomRow(int arity, Random r) {
        long[] row = new long[arity];
        for (int i = 0; i < arity; i++) {
            row[i] = r.nextInt(4);
        }
        return row;
    }
}
