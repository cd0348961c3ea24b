package io.flinkivm.sql.translate;

import java.util.List;
import java.util.function.Function;
import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.sql.SqlDialect;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlShuttle;

/**
 * An expression of one table's row as Flink SQL text over that table alone: each column reference
 * ({@code b.dateTime}) becomes the column's quoted name ({@code `dateTime`}), everything else is
 * unparsed as written (function names bare, so that Flink resolves them as it resolves its own queries').
 */
final class FlinkSqlText {
    private FlinkSqlText() {}

    /** Calcite's unparser with Flink SQL's lexical rules: backticks, names as written. */
    private static final SqlDialect FLINK = new SqlDialect(SqlDialect.EMPTY_CONTEXT
            .withIdentifierQuoteString("`")
            .withIdentifierEscapedQuoteString("``")
            .withLiteralQuoteString("'")
            .withLiteralEscapedQuoteString("''")
            .withUnquotedCasing(Casing.UNCHANGED)
            .withQuotedCasing(Casing.UNCHANGED)
            .withCaseSensitive(true));

    /**
     * The text of {@code node}.
     *
     * @param column the name, in the table, of the column an identifier refers to
     */
    static String of(SqlNode node, Function<SqlIdentifier, String> column) {
        SqlNode local = node.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlIdentifier id) {
                return new SqlIdentifier(
                        List.of(column.apply(id)), null, id.getParserPosition(), List.of(SqlParserPos.QUOTED_ZERO));
            }
        });
        return local.toSqlString(c -> c.withDialect(FLINK)
                        .withQuoteAllIdentifiers(false)
                        .withAlwaysUseParentheses(true)
                        .withIndentation(0))
                .getSql();
    }
}
