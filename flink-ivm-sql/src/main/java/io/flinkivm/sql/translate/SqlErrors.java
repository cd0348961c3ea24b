package io.flinkivm.sql.translate;

import io.flinkivm.core.plan.UnsupportedPlanException;
import io.flinkivm.core.query.InvalidQueryException;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * The SQL front end's errors, each with the position it refers to: {@link InvalidQueryException} for
 * a malformed query (unknown names, type errors) and {@link UnsupportedPlanException} for legal SQL
 * outside the subset, naming the construct, why, and what is supported.
 */
final class SqlErrors {

    /** What every refusal ends with. */
    static final String SUPPORTED = "flink-ivm maintains SELECT [DISTINCT] columns, expressions of one table and"
            + " aggregates (COUNT, SUM, AVG, MIN, MAX) FROM tables joined with [INNER] JOIN ... ON, CROSS JOIN or"
            + " commas, joined by equalities between tables, with any condition on one table's row, GROUP BY"
            + " columns or expressions of one table";

    private final String sql;

    SqlErrors(String sql) {
        this.sql = sql;
    }

    /** Legal SQL outside the subset: {@code construct at line l, column c is not supported: why. SUPPORTED.} */
    UnsupportedPlanException unsupported(SqlNode node, String construct, String why) {
        SqlParserPos pos = node == null ? null : node.getParserPosition();
        return new UnsupportedPlanException(construct + (pos == null || pos == SqlParserPos.ZERO ? "" : " " + at(pos))
                + " is not supported: " + why + ". " + SUPPORTED + ".");
    }

    /** A malformed query: {@code message at line l, column c}, with the offset into the text. */
    InvalidQueryException invalid(SqlNode node, String message) {
        SqlParserPos pos = node.getParserPosition();
        return new InvalidQueryException(message + " " + at(pos), offset(pos));
    }

    /** The offset into the SQL text of a parser position. */
    int offset(SqlParserPos pos) {
        int line = 1;
        int i = 0;
        while (line < pos.getLineNum() && i < sql.length()) {
            if (sql.charAt(i++) == '\n') {
                line++;
            }
        }
        return Math.min(sql.length(), i + Math.max(0, pos.getColumnNum() - 1));
    }

    static String at(SqlParserPos pos) {
        return "at line " + pos.getLineNum() + ", column " + pos.getColumnNum();
    }

    /** An expression as text without Calcite's backticks around plain names. */
    static String plain(SqlNode node) {
        return node.toString().replaceAll("`([A-Za-z_][A-Za-z0-9_$]*)`", "$1");
    }

    /** The name of a call's operator, or the node's text. */
    static String callName(SqlNode node) {
        return node instanceof SqlCall c ? c.getOperator().getName() : String.valueOf(node);
    }

    /** A construct's name for messages: {@code UNION}, {@code a subquery}, {@code the operator ||}, ... */
    static String describe(SqlNode node) {
        if (node == null) {
            return "nothing";
        }
        if (node instanceof SqlCall call) {
            return switch (call.getKind()) {
                case UNION -> "UNION";
                case INTERSECT -> "INTERSECT";
                case EXCEPT -> "EXCEPT";
                case ORDER_BY -> "ORDER BY";
                case WITH -> "WITH";
                case VALUES -> "VALUES";
                case SELECT -> "a subquery";
                case IN -> "IN";
                case NOT_IN -> "NOT IN";
                case EXISTS -> "EXISTS";
                case CASE -> "CASE";
                case CAST -> "CAST";
                case IS_NULL, IS_NOT_NULL -> "IS [NOT] NULL";
                case LIKE -> "LIKE";
                case COLLECTION_TABLE -> "a table function";
                case UNNEST -> "UNNEST";
                case LATERAL -> "LATERAL";
                case SNAPSHOT -> "FOR SYSTEM_TIME AS OF";
                default ->
                    call.getOperator().getName().isEmpty()
                            ? call.getKind().toString()
                            : "the operator " + call.getOperator().getName();
            };
        }
        return plain(node);
    }
}
