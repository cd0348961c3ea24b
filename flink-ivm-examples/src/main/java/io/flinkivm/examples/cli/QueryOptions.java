package io.flinkivm.examples.cli;

import io.flinkivm.core.plan.Inputs;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.UnsupportedPlanException;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.InvalidQueryException;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.examples.command.CliException;
import io.flinkivm.examples.command.QueryTextOptions;
import io.flinkivm.sql.translate.SqlSchemas;
import io.flinkivm.sql.translate.SqlTable;
import io.flinkivm.sql.translate.SqlTranslation;
import java.util.Map;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The options {@code --query} (or {@code --sql} with {@code --schema}), {@code --plan} and
 * {@code --key-checks}, mixed into {@code explain} and {@code run}; {@code --query} and {@code --plan}
 * are {@link QueryTextOptions}.
 */
final class QueryOptions {

    @Mixin
    QueryTextOptions text;

    @Option(
            names = "--sql",
            paramLabel = "SQL",
            description = {
                "The query in SQL instead of --query, e.g. 'SELECT o.ck, COUNT(*) FROM orders o JOIN"
                        + " customer c ON c.ck = o.ck GROUP BY o.ck', over the tables of --schema. It is translated into a"
                        + " conjunctive query, a semiring (COUNT(*) and SUM: natural, MIN: min-plus, MAX: max-plus,"
                        + " DISTINCT: boolean) and each table's payload; SQL outside that subset ends with exit code 2."
            })
    String sql;

    @Option(
            names = "--schema",
            paramLabel = "SCHEMA",
            description = {
                "With --sql: the tables and their column types, e.g. 'customer(ck BIGINT, seg STRING);"
                        + " orders(ok BIGINT, ck BIGINT)' (TINYINT, SMALLINT, INT, BIGINT, DECIMAL(p, s), FLOAT, DOUBLE,"
                        + " CHAR(n), VARCHAR(n), STRING, BOOLEAN, DATE, TIMESTAMP(p))."
            })
    String schema;

    @Option(
            names = "--key-checks",
            description = {
                "Check also the keys that the plan relies on only through the head's closure (no key stage looks them"
                        + " up while rows flow, as TPC-H Q3's orders key grouped by the order key): each row that"
                        + " breaks one is rejected, at the cost of a key stage. Without it such keys are trusted, as"
                        + " Flink trusts PRIMARY KEY ... NOT ENFORCED (IvmOptions.withKeyChecks); explain says which"
                        + " keys are trusted and which are checked."
            })
    boolean keyChecks;

    /** Whether the query is given in SQL. */
    boolean isSql() {
        return sql != null;
    }

    /** The parsed query; a malformed one ends the command with exit code 2 and the parser's positioned message. */
    ConjunctiveQuery parse() {
        if (sql != null || schema != null) {
            return translate().query();
        }
        if (text.text() == null) {
            throw CliException.usage("Missing required option: give --query or --sql (with --schema)");
        }
        return text.parse(CliException::usage);
    }

    /**
     * The translation of {@code --sql} over {@code --schema}; malformed or unsupported SQL ends the command
     * with exit code 2 and the message with its position.
     */
    SqlTranslation translate() {
        if (text.text() != null && sql != null) {
            throw CliException.usage("give either --query or --sql, not both");
        }
        if (sql == null) {
            throw CliException.usage("--schema goes with --sql");
        }
        if (schema == null) {
            throw CliException.usage("--sql needs --schema, e.g. --schema 'customer(ck BIGINT, seg STRING); orders(ok"
                    + " BIGINT, ck BIGINT)'");
        }
        try {
            Map<String, SqlTable> tables = SqlSchemas.parse(schema);
            return SqlTranslation.of(
                    sql, path -> path.size() == 1 ? tables.get(path.get(0)) : null, FlinkExpressions.typer(tables));
        } catch (InvalidQueryException e) {
            String m = e.getMessage();
            throw CliException.usage(
                    m.startsWith("invalid SQL: ") || m.startsWith("schema: ") ? m : "invalid SQL: " + m);
        } catch (UnsupportedPlanException e) {
            throw CliException.usage("unsupported SQL: " + e.getMessage());
        }
    }

    /** The plan of {@code q} over {@code semiring}; an unsupported plan ends the command with exit code 2. */
    MaintenancePlan plan(ConjunctiveQuery q, Semiring<?> semiring) {
        return text.plan(q, semiring, CliException::usage).withKeyChecks(keyChecks);
    }

    /** The same for {@code inputs} (the relations with deletes and updates). */
    MaintenancePlan plan(ConjunctiveQuery q, Semiring<?> semiring, Inputs inputs) {
        return text.plan(q, semiring, inputs, CliException::usage).withKeyChecks(keyChecks);
    }
}
