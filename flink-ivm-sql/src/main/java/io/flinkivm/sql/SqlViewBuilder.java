package io.flinkivm.sql;

import io.flinkivm.core.plan.Inputs;
import io.flinkivm.core.plan.KeyedPlan;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.plan.UnsupportedPlanException;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.flink.FlinkIvm;
import io.flinkivm.flink.IvmJob;
import io.flinkivm.flink.IvmOptions;
import io.flinkivm.flink.OutputMode;
import io.flinkivm.flink.types.DeadLetter;
import io.flinkivm.flink.types.DeadLetterTypeInfo;
import io.flinkivm.flink.types.InputRecord;
import io.flinkivm.flink.types.ResultRecord;
import io.flinkivm.flink.types.TupleTypeInfo;
import io.flinkivm.sql.rows.DistinctFold;
import io.flinkivm.sql.rows.FlinkTables;
import io.flinkivm.sql.rows.SqlRowChanges;
import io.flinkivm.sql.rows.TableRowsToChanges;
import io.flinkivm.sql.translate.ComputedColumn;
import io.flinkivm.sql.translate.SqlTable;
import io.flinkivm.sql.translate.SqlTranslation;
import io.flinkivm.sql.translate.TableInput;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.Expressions;
import org.apache.flink.table.api.SqlParserException;
import org.apache.flink.table.api.Table;
import org.apache.flink.table.api.TableConfig;
import org.apache.flink.table.api.TableException;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.api.config.ExecutionConfigOptions;
import org.apache.flink.table.api.config.OptimizerConfigOptions;
import org.apache.flink.table.api.config.OptimizerConfigOptions.NonDeterministicUpdateStrategy;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.expressions.Expression;
import org.apache.flink.table.runtime.typeutils.ExternalTypeInfo;
import org.apache.flink.table.types.DataType;
import org.apache.flink.types.Row;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.OutputTag;

/**
 * Builds a {@link SqlView} for {@link FlinkIvmSql#sql}: the tables' rows become inserts (or changes),
 * flink-ivm maintains the query, and its changelog becomes the view's table ({@link IvmTables#table}).
 * Every operator's uid derives from the SQL text (or {@link IvmOptions#uidPrefix()}), so a savepoint
 * restores into the same query, and two queries in one job never share a uid.
 */
final class SqlViewBuilder {
    /** A bag's rows over tables with deletes: a copy comes ({@code +I}) or goes ({@code -D}). */
    private static final ChangelogMode BAG_WITH_DELETES = ChangelogMode.newBuilder()
            .addContainedKind(RowKind.INSERT)
            .addContainedKind(RowKind.DELETE)
            .build();

    private SqlViewBuilder() {}

    /** See {@link FlinkIvmSql#sql}. */
    static SqlView build(StreamTableEnvironment tEnv, String sql, IvmOptions given) {
        IvmOptions options = withTableStateTtl(tEnv.getConfig(), given);
        Map<List<String>, Table> tables = new HashMap<>();
        SqlTranslation translation = SqlTranslation.of(
                sql,
                path -> {
                    Table t = tables.computeIfAbsent(path, p -> FlinkTables.lookup(tEnv, p));
                    return t == null ? null : withOptionKey(FlinkTables.schema(String.join(".", path), t), options);
                },
                FlinkTables.typer(tEnv));
        List<String> changelog = new ArrayList<>();
        for (TableInput input : translation.tables()) {
            if (!FlinkTables.isInsertOnly(tables.get(input.path()))) {
                changelog.addAll(input.relations());
            }
        }
        Inputs inputs = Inputs.changelog(changelog);
        Semiring<?> semiring = translation.semiringFor(inputs);
        MaintenancePlan plan = Planner.plan(translation.query(), semiring, options.strategy(), inputs)
                .withKeyChecks(options.keyChecks())
                .withTables(translation.tablesOfSharedRows());
        return build(tEnv, translation, tables, plan, semiring, options);
    }

    private static <T> SqlView build(
            StreamTableEnvironment tEnv,
            SqlTranslation translation,
            Map<List<String>, Table> tables,
            MaintenancePlan plan,
            Semiring<T> semiring,
            IvmOptions options) {
        OutputTag<DeadLetter> rejected = new OutputTag<>("ivm-sql-rejected-rows", DeadLetterTypeInfo.INSTANCE);
        String uid =
                options.uidPrefix() != null ? options.uidPrefix() : "ivm-sql-" + fingerprint(translation.sql()) + "-";
        TypeInformation<InputRecord<T>> inputType = FlinkIvm.inputType(semiring);
        List<DataStream<InputRecord<T>>> inserts = new ArrayList<>();
        DataStream<DeadLetter> deadLetters = null;
        Set<String> checked = new HashSet<>();
        // The relations whose key stages rows look up: their rows that the query's filter drops reach
        // those stages as marks, so the table's filter is applied here rather than in Flink's Calc.
        Set<String> marked = new HashSet<>();
        if (plan instanceof KeyedPlan keyed) {
            keyed.stages().forEach(k -> checked.add(k.relation()));
            for (String r : keyed.query().relations()) {
                if (keyed.stage(r) >= 0 && keyed.isLookedUp(r)) {
                    marked.add(r);
                }
            }
        }
        for (TableInput declared : translation.tables()) {
            TableInput input = declared;
            boolean changes = plan.inputs().hasDeletes(input.relations().get(0));
            Table table = tables.get(input.path());
            boolean marks = input.relations().stream().anyMatch(marked::contains);
            if (!changes && !marks) {
                Table filtered = filtered(table, input);
                if (filtered != table) {
                    table = filtered;
                    input = input.prefiltered();
                }
            }
            // The table's projection: its columns the query reads, and the expressions Flink computes for it.
            List<Expression> columns = new ArrayList<>();
            for (int i = 0; i < input.inputCount(); i++) {
                String name = input.inputColumns().get(i);
                columns.add(
                        input.isComputed(i)
                                ? Expressions.callSql(input.inputSql(i)).as(name)
                                : Expressions.$(name));
            }
            Table projected = table.select(columns.toArray(new Expression[0]));
            SingleOutputStreamOperator<InputRecord<T>> converted;
            if (changes) {
                // ChangelogMode.all(): an upsert table's previous rows come from Flink's ChangelogNormalize.
                DataStream<Row> rows = changelogRows(tEnv, projected, input);
                // At the rows' own parallelism, chained: a rebalance would reorder one row's changes, and
                // a delete could then reach the row check before the insert it names.
                converted = rows.process(new TableRowsToChanges<>(
                                input, TableRowsToChanges.CHANGELOG, semiring, true, rejected, checked, marked))
                        .setParallelism(rows.getParallelism());
            } else {
                DataStream<RowData> rows;
                try {
                    rows = tEnv.toDataStream(projected, internalRows(projected));
                } catch (TableException | ValidationException e) {
                    throw new UnsupportedPlanException("table " + input.name() + " cannot be read as an insert-only"
                            + " stream (" + firstLine(e) + ")");
                }
                converted = rows.process(new TableRowsToChanges<>(
                        input, TableRowsToChanges.INTERNAL, semiring, false, rejected, checked, marked));
            }
            converted = converted
                    .returns(inputType)
                    .name("rows of " + input.name() + (changes ? " to changes" : " to inserts"))
                    .uid(uid + "rows-" + input.name());
            inserts.add(converted);
            DataStream<DeadLetter> bad = converted.getSideOutput(rejected);
            deadLetters = deadLetters == null ? bad : deadLetters.union(bad);
        }
        List<String> key = new ArrayList<>();
        List<DataTypes.Field> fields = new ArrayList<>();
        boolean bag = translation.isBag();
        // The grouped columns are the table's primary key, unless one of them can be NULL (a key cannot).
        boolean keyed = !bag;
        for (SqlTranslation.OutputColumn c : translation.columns()) {
            keyed &= c.isAggregate() || !c.nullable();
        }
        for (SqlTranslation.OutputColumn c : translation.columns()) {
            DataType type = FlinkTables.dataType(c.type());
            if (keyed && !c.isAggregate()) {
                key.add(c.name());
                type = type.notNull();
            }
            fields.add(DataTypes.FIELD(c.name(), type));
        }
        // The view is the job's changelog: an upsert stream keyed by the grouped columns, or, for a
        // global aggregate (no key), a retract stream, which needs each update's old value first; a
        // bag is insert-only, made from each count's growth, which needs the old count too.
        // COUNT(DISTINCT ...) folds the result tuples into groups, which needs each update's old payload.
        boolean distinct = translation.distinctGroups() != null;
        IvmOptions changelog = options.withOutputMode(OutputMode.CHANGELOG)
                .withUidPrefix(uid)
                .withWindows(translation.windows())
                .withUpdateBefore(key.isEmpty() || bag || distinct || options.updateBefore());
        IvmJob<T> job = FlinkIvm.maintain(inserts, plan, semiring, changelog);
        DataType rowType = DataTypes.ROW(fields.toArray(new DataTypes.Field[0]));
        ChangelogMode mode = !bag
                ? key.isEmpty() ? ChangelogMode.all() : ChangelogMode.upsert()
                : plan.inputs().isInsertOnly() ? ChangelogMode.insertOnly() : BAG_WITH_DELETES;
        if (distinct) {
            DataStream<ResultRecord<T>> results = job.results();
            DataStream<Row> groups = results.keyBy(DistinctFold.<T>groupKey(translation), TupleTypeInfo.INSTANCE)
                    .process(new DistinctFold<>(
                            translation, semiring, key.isEmpty() || options.updateBefore(), options.stateTtlMillis()))
                    .returns(ExternalTypeInfo.<Row>of(rowType))
                    .name("groups of COUNT(DISTINCT ...)")
                    .uid(uid + "distinct-groups")
                    .setParallelism(results.getParallelism());
            Table table = IvmTables.fromRows(tEnv, groups, rowType, key, mode);
            return new SqlView(table, translation, job, job.deadLetters().union(deadLetters));
        }
        IvmTables.ChangelogTable view = IvmTables.table(
                tEnv,
                job.results(),
                new SqlRowChanges(translation),
                rowType,
                key,
                mode,
                "changes to rows",
                uid + "result-rows");
        return new SqlView(view.table(), translation, job, job.deadLetters().union(deadLetters, view.rejected()));
    }

    /**
     * The rows of a table with deletes or updates through its projection. Where Flink computes columns of it
     * ({@link TableInput#computedColumns()}), Flink's own check of non-deterministic updates
     * ({@code table.optimizer.non-deterministic-update.strategy: TRY_RESOLVE}) runs on the projection: a delete
     * must compute the values its insert computed, which RAND(), NOW() or a user's non-deterministic function
     * does not.
     *
     * @throws UnsupportedPlanException if Flink finds a computed column that is not deterministic
     */
    private static DataStream<Row> changelogRows(StreamTableEnvironment tEnv, Table projected, TableInput input) {
        if (input.computedColumns().isEmpty()) {
            return tEnv.toChangelogStream(projected);
        }
        TableConfig config = tEnv.getConfig();
        NonDeterministicUpdateStrategy before =
                config.get(OptimizerConfigOptions.TABLE_OPTIMIZER_NONDETERMINISTIC_UPDATE_STRATEGY);
        config.set(
                OptimizerConfigOptions.TABLE_OPTIMIZER_NONDETERMINISTIC_UPDATE_STRATEGY,
                NonDeterministicUpdateStrategy.TRY_RESOLVE);
        try {
            return tEnv.toChangelogStream(projected);
        } catch (TableException e) {
            if (!String.valueOf(e.getMessage()).contains("non-deterministic")) {
                throw e;
            }
            List<String> computed = new ArrayList<>();
            for (ComputedColumn c : input.computedColumns()) {
                computed.add(c.name() + " = " + c.sql());
            }
            throw new UnsupportedPlanException("table " + input.name() + " has deletes or updates, and Flink finds a"
                    + " column it computes for the query (" + String.join(", ", computed) + ") not deterministic: "
                    + firstLine(e) + " A delete must compute the values its insert computed; use deterministic"
                    + " functions on such a table");
        } finally {
            config.set(OptimizerConfigOptions.TABLE_OPTIMIZER_NONDETERMINISTIC_UPDATE_STRATEGY, before);
        }
    }

    /**
     * The table with the rows that no relation of the query takes dropped by Flink, in the table's own
     * {@code Calc} ({@link TableInput#pushedFilter}), or the table as it is where its filter is not pushed or Flink
     * does not take the text. Only insert-only tables: a filtered delete must still reach the row check.
     */
    private static Table filtered(Table table, TableInput input) {
        String condition = input.pushedFilter();
        if (condition == null) {
            return table;
        }
        try {
            return table.where(Expressions.callSql(condition));
        } catch (TableException | ValidationException | SqlParserException e) {
            // flink-ivm's own filter still applies: only the early drop is lost.
            return table;
        }
    }

    /**
     * The type {@code toDataStream} gives a table's rows in for the front end: Flink's internal rows, whose
     * fields {@link TableInput#fromRowData} reads without making a Java row of each, every column nullable
     * (the front end checks NULLs itself, so Flink adds no NOT NULL check of its own in front of it).
     */
    private static DataType internalRows(Table table) {
        List<DataTypes.Field> fields = new ArrayList<>();
        for (Column c : table.getResolvedSchema().getColumns()) {
            fields.add(DataTypes.FIELD(c.getName(), c.getDataType().nullable()));
        }
        return DataTypes.ROW(fields.toArray(new DataTypes.Field[0])).bridgedTo(RowData.class);
    }

    /**
     * The table with the primary key {@link IvmOptions#primaryKeys()} declares for it (by its name as
     * FROM writes it, or its last path element), if the catalog declares none.
     *
     * @throws UnsupportedPlanException if the option and the catalog declare different keys
     */
    /**
     * {@code options} with the table environment's idle state retention ({@code table.exec.state.ttl},
     * as Flink SQL's own joins and aggregates take it) unless they set a state TTL themselves (zero
     * included: an explicit "never" wins too).
     */
    static IvmOptions withTableStateTtl(ReadableConfig config, IvmOptions options) {
        if (options.stateTtl() != null) {
            return options;
        }
        Duration ttl = config.get(ExecutionConfigOptions.IDLE_STATE_RETENTION);
        return ttl == null || ttl.isZero() ? options : options.withStateTtl(ttl);
    }

    static SqlTable withOptionKey(SqlTable table, IvmOptions options) {
        List<String> key = options.primaryKeys().get(table.name());
        if (key == null) {
            String last = table.name().substring(table.name().lastIndexOf('.') + 1);
            key = options.primaryKeys().get(last);
        }
        if (key == null || key.equals(table.primaryKey())) {
            return table;
        }
        if (!table.primaryKey().isEmpty()) {
            throw new UnsupportedPlanException("table " + table.name() + " declares PRIMARY KEY ("
                    + String.join(", ", table.primaryKey()) + "), but IvmOptions.withPrimaryKey gives ("
                    + String.join(", ", key) + "); declare one key");
        }
        for (String column : key) {
            if (table.indexOf(column) < 0) {
                throw new UnsupportedPlanException("IvmOptions.withPrimaryKey(" + table.name() + ", ...) names "
                        + column + ", which is not a column of " + table.name() + " (" + table.columnList() + ")");
            }
        }
        return table.withPrimaryKey(key);
    }

    private static String fingerprint(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 6);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is not available", e);
        }
    }

    private static String firstLine(Exception e) {
        String m = String.valueOf(e.getMessage());
        int cut = m.indexOf('\n');
        return cut < 0 ? m : m.substring(0, cut);
    }
}
