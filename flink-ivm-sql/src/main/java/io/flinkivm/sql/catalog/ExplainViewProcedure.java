package io.flinkivm.sql.catalog;

import io.flinkivm.core.query.InvalidQueryException;
import io.flinkivm.flink.IvmOptions;
import io.flinkivm.sql.FlinkIvmSql;
import io.flinkivm.sql.SqlView;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.ProcedureHint;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.table.procedures.Procedure;
import org.apache.flink.types.Row;

/**
 * {@code CALL ivm.sys.explain_view(query => '...', options => '...')}: how flink-ivm translates and plans the
 * query over the catalog's tables ({@link SqlView#explain()}, what {@code explain --sql} prints), one row per
 * line; no job starts. A query flink-ivm refuses is the statement's error, with the message {@code
 * maintain_view} gives.
 */
@PublicEvolving
public final class ExplainViewProcedure implements Procedure {

    private final IvmCatalog catalog;

    ExplainViewProcedure(IvmCatalog catalog) {
        this.catalog = catalog;
    }

    /** @return the explanation's lines, one row each */
    @ProcedureHint(
            arguments = {
                @ArgumentHint(name = "query", type = @DataTypeHint("STRING")),
                @ArgumentHint(name = "options", type = @DataTypeHint("STRING"), isOptional = true)
            },
            output = @DataTypeHint("ROW<plan STRING>"))
    public Row[] call(ProcedureContext context, String query, String options) {
        ViewOptions parsed = ViewOptions.parse(options);
        StreamTableEnvironment tEnv = catalog.tableEnvironment(context.getExecutionEnvironment());
        return build(catalog, tEnv, query, parsed.ivm())
                .explain()
                .lines()
                .map(Row::of)
                .toArray(Row[]::new);
    }

    /**
     * {@link FlinkIvmSql#sql} of {@code query} in the procedures' table environment: an unknown table's message
     * says which tables the procedures can see.
     */
    static SqlView build(IvmCatalog catalog, StreamTableEnvironment tEnv, String query, IvmOptions options) {
        if (query == null || query.isBlank()) {
            throw new InvalidQueryException("the query is empty: give query => 'SELECT ...'");
        }
        try {
            return FlinkIvmSql.sql(tEnv, query, options);
        } catch (InvalidQueryException e) {
            if (e.getMessage() != null && e.getMessage().startsWith("unknown table")) {
                throw new InvalidQueryException(e.getMessage() + "; " + catalog.visibleTables(), e.position());
            }
            throw e;
        }
    }
}
