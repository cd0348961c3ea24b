package io.flinkivm.sql.catalog;

import io.flinkivm.flink.IvmOptions;
import io.flinkivm.flink.types.DeadLetter;
import io.flinkivm.sql.FlinkIvmSql;
import io.flinkivm.sql.SqlView;
import java.time.Duration;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.ProcedureHint;
import org.apache.flink.table.api.Table;
import org.apache.flink.table.api.bridge.java.StreamStatementSet;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.operations.QueryOperation;
import org.apache.flink.table.operations.SourceQueryOperation;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.table.procedures.Procedure;
import org.apache.flink.types.Row;

/**
 * {@code CALL ivm.sys.maintain_view(query => '...', sink => 'table', options => '...')}: maintains the query
 * with {@link FlinkIvmSql#sql} over the tables of the catalog, writes the view's changelog into the sink table,
 * submits the job ({@code executeAsync}) and returns its id; {@code STOP JOB 'id' WITH SAVEPOINT} stops it.
 *
 * <p>The job's flink-ivm operators take their uids from the sink table's name ({@code view-ivm.default.revenue-}),
 * so the same call after {@code SET 'execution.savepoint.path' = '...'} restores them from a savepoint of the
 * previous job; Flink SQL's own operators (sources, sink) keep the ids Flink generates from the job's shape,
 * which the same call builds again. Without {@code snapshot-every} or {@code snapshot-period} the view emits its
 * changes every {@value #DEFAULT_PERIOD_SECONDS} s ({@code snapshot-period}): an unbounded input never ends.
 * Rows that cannot become inserts go to the {@code dead-letters} table (columns {@code origin}, {@code reason},
 * {@code record}, all strings) when given, else to the TaskManagers' standard error; the metric {@code
 * ivmDeadLetters} counts them either way.
 */
@PublicEvolving
public final class MaintainViewProcedure implements Procedure {

    /** The trigger period of a view without trigger options. */
    public static final int DEFAULT_PERIOD_SECONDS = 1;

    private final IvmCatalog catalog;

    MaintainViewProcedure(IvmCatalog catalog) {
        this.catalog = catalog;
    }

    /**
     * @return one row: the submitted job's id
     * @throws Exception with the message {@code explain_view} gives for the query, or Flink's for the sink
     */
    @ProcedureHint(
            arguments = {
                @ArgumentHint(name = "query", type = @DataTypeHint("STRING")),
                @ArgumentHint(name = "sink", type = @DataTypeHint("STRING")),
                @ArgumentHint(name = "options", type = @DataTypeHint("STRING"), isOptional = true)
            },
            output = @DataTypeHint("ROW<job_id STRING>"))
    public Row[] call(ProcedureContext context, String query, String sink, String options) throws Exception {
        StreamExecutionEnvironment env = context.getExecutionEnvironment();
        String jobName = prepare(env, query, sink, options);
        JobClient job = env.executeAsync(jobName);
        return new Row[] {Row.of(job.getJobID().toString())};
    }

    /**
     * Builds the view's job in {@code env} (the jars, the state backend, the view, its sink and its dead letters)
     * without submitting it.
     *
     * @return the job's name
     */
    String prepare(StreamExecutionEnvironment env, String query, String sink, String options) {
        ViewOptions parsed = ViewOptions.parse(options);
        if (sink == null || sink.isBlank()) {
            throw new IllegalArgumentException(IvmCatalog.MAINTAIN_VIEW + " needs sink => 'table', the table the"
                    + " view's changelog is written to");
        }
        catalog.configureJob(env, parsed.stateBackend());
        StreamTableEnvironment tEnv = catalog.tableEnvironment(env);
        String view = viewName(tEnv.from(sink), sink);
        IvmOptions ivm = parsed.ivm();
        if (!parsed.triggers()) {
            ivm = ivm.withSnapshotPeriod(Duration.ofSeconds(DEFAULT_PERIOD_SECONDS));
        }
        if (ivm.uidPrefix() == null) {
            ivm = ivm.withUidPrefix(uidPrefix(view));
        }
        SqlView maintained = ExplainViewProcedure.build(catalog, tEnv, query, ivm);
        StreamStatementSet statements = tEnv.createStatementSet();
        statements.add(maintained.table().insertInto(sink));
        DataStream<DeadLetter> deadLetters = maintained.deadLetters();
        if (parsed.deadLetters() != null) {
            DataStream<Row> rows = deadLetters
                    .map(new DeadLetterRow())
                    .returns(Types.ROW_NAMED(
                            new String[] {"origin", "reason", "record"}, Types.STRING, Types.STRING, Types.STRING))
                    .name("dead letters to rows")
                    .uid(ivm.uidPrefix() + "dead-letter-rows");
            statements.add(tEnv.fromDataStream(rows).insertInto(parsed.deadLetters()));
        } else {
            deadLetters
                    .printToErr()
                    .name("dead letters to standard error")
                    .uid(ivm.uidPrefix() + "dead-letters-stderr");
        }
        statements.attachAsDataStream();
        return env.getConfiguration().getOptional(PipelineOptions.NAME).orElse("flink-ivm view " + view);
    }

    /** The prefix of the uids of the view's operators when {@code uid-prefix} is not given. */
    static String uidPrefix(String view) {
        return "view-" + view + "-";
    }

    /** The sink's full name ({@code ivm.default.revenue}), or the text given where Flink does not say it. */
    private static String viewName(Table sink, String given) {
        QueryOperation op = sink.getQueryOperation();
        return op instanceof SourceQueryOperation source
                ? source.getContextResolvedTable().getIdentifier().asSummaryString()
                : given.strip();
    }

    /** A dead letter as a row of the dead-letter table. */
    private static final class DeadLetterRow implements MapFunction<DeadLetter, Row> {
        private static final long serialVersionUID = 1L;

        @Override
        public Row map(DeadLetter d) {
            return Row.of(d.origin(), d.reason(), d.record());
        }
    }
}
