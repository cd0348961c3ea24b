package io.flinkivm.sql.translate;

import io.flinkivm.core.query.InvalidQueryException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.flink.annotation.Internal;

/**
 * Parses table schemas written as {@code customer(ck BIGINT, seg STRING); orders(ok BIGINT, ck BIGINT)}:
 * tables separated by semicolons, each a name and its columns with Flink SQL types (TINYINT, SMALLINT,
 * INT, BIGINT, DECIMAL(p, s), FLOAT, DOUBLE, CHAR(n), VARCHAR(n), STRING, BOOLEAN, DATE, TIME(p), TIMESTAMP(p),
 * each optionally NOT NULL), and a primary key as Flink's DDL writes it, among the columns:
 * {@code orders(o_orderkey BIGINT, o_custkey BIGINT, PRIMARY KEY (o_orderkey) NOT ENFORCED)} (NOT
 * ENFORCED may be left out), and an event-time attribute as Flink's DDL writes it, among the columns:
 * {@code bid(auction BIGINT, dateTime TIMESTAMP(3), WATERMARK FOR dateTime AS dateTime - INTERVAL '5'
 * SECOND)} (the expression is the column, or the column less an interval). Names are identifiers or in
 * backticks.
 */
@Internal
public final class SqlSchemas {
    private final String text;
    private int pos;

    private SqlSchemas(String text) {
        this.text = text;
    }

    /**
     * The tables of {@code text}, by name, in order.
     *
     * @throws InvalidQueryException naming the position of the first error
     */
    public static Map<String, SqlTable> parse(String text) {
        return new SqlSchemas(text).tables();
    }

    /**
     * The type {@code text} spells, e.g. {@code DECIMAL(15, 2)} (as in a schema).
     *
     * @throws InvalidQueryException if it is not one
     */
    static SqlType type(String text) {
        SqlSchemas parser = new SqlSchemas(text);
        parser.skipSpace();
        SqlType type = parser.type();
        parser.skipSpace();
        if (parser.pos < text.length()) {
            throw parser.error("expected the end of the type", parser.pos);
        }
        return type;
    }

    private Map<String, SqlTable> tables() {
        Map<String, SqlTable> out = new LinkedHashMap<>();
        skipSpace();
        while (pos < text.length()) {
            int start = pos;
            SqlTable t = table();
            if (out.putIfAbsent(t.name(), t) != null) {
                throw error("table " + t.name() + " is declared twice", start);
            }
            skipSpace();
            if (pos < text.length()) {
                expect(';');
                skipSpace();
            }
        }
        if (out.isEmpty()) {
            throw error(
                    "no table in the schema; expected e.g. 'customer(ck BIGINT, seg STRING); orders(ok BIGINT, ck BIGINT)'",
                    0);
        }
        return out;
    }

    private SqlTable table() {
        String name = identifier("a table name");
        skipSpace();
        expect('(');
        List<SqlTable.Column> columns = new ArrayList<>();
        List<String> primaryKey = null;
        String timeAttribute = null;
        do {
            skipSpace();
            int start = pos;
            if (keyword("WATERMARK")) {
                if (timeAttribute != null) {
                    throw error("table " + name + " declares two watermarks", start);
                }
                timeAttribute = watermark(name, columns);
                skipSpace();
                continue;
            }
            if (primaryKeyAhead()) {
                if (primaryKey != null) {
                    throw error("table " + name + " declares two primary keys", start);
                }
                primaryKey = primaryKey(name);
                skipSpace();
                continue;
            }
            String column = identifier("a column name");
            skipSpace();
            SqlType type = type();
            for (SqlTable.Column c : columns) {
                if (c.name().equals(column)) {
                    throw error("table " + name + " has two columns named " + column, start);
                }
            }
            columns.add(new SqlTable.Column(column, type, !notNull()));
            skipSpace();
        } while (accept(','));
        expect(')');
        if (primaryKey != null) {
            for (String k : primaryKey) {
                if (new SqlTable(name, columns).indexOf(k) < 0) {
                    throw error(
                            "the primary key of " + name + " names " + k + ", which is not one of its columns",
                            pos - 1);
                }
            }
        }
        return new SqlTable(name, columns, primaryKey == null ? List.of() : primaryKey, timeAttribute);
    }

    /**
     * {@code FOR column AS column [- INTERVAL 'n' unit]} after WATERMARK: the column, a TIMESTAMP(p)
     * declared before it.
     */
    private String watermark(String table, List<SqlTable.Column> columns) {
        skipSpace();
        int start = pos;
        if (!keyword("FOR")) {
            throw error("expected FOR after WATERMARK", start);
        }
        skipSpace();
        int at = pos;
        String column = identifier("a column name");
        SqlTable.Column declared = null;
        for (SqlTable.Column c : columns) {
            if (c.name().equals(column)) {
                declared = c;
            }
        }
        if (declared == null) {
            throw error(
                    "the WATERMARK of " + table + " is for " + column + ", which is not a column declared before it",
                    at);
        }
        if (declared.type().kind() != SqlType.Kind.TIMESTAMP) {
            throw error(
                    "the WATERMARK of " + table + " is for " + column + ", a " + declared.type()
                            + "; an event-time attribute is a TIMESTAMP(p)",
                    at);
        }
        skipSpace();
        if (!keyword("AS")) {
            throw error("expected AS after WATERMARK FOR " + column, pos);
        }
        skipSpace();
        at = pos;
        if (!identifier("the watermark's column").equals(column)) {
            throw error(
                    "the watermark of " + column + " must be " + column + " or " + column
                            + " - INTERVAL '...' SECOND (bounded out-of-orderness)",
                    at);
        }
        skipSpace();
        if (accept('-')) {
            skipSpace();
            if (!keyword("INTERVAL")) {
                throw error("expected INTERVAL '...' unit after " + column + " -", pos);
            }
            skipSpace();
            expect('\'');
            int digits = pos;
            while (pos < text.length() && text.charAt(pos) != '\'') {
                pos++;
            }
            String amount = text.substring(digits, pos).trim();
            expect('\'');
            if (!amount.matches("[0-9]+(\\.[0-9]+)?")) {
                throw error("expected a number of units in the watermark's interval", digits);
            }
            skipSpace();
            int unit = pos;
            String word = word().toUpperCase(Locale.ROOT);
            if (!List.of("MILLISECOND", "SECOND", "MINUTE", "HOUR", "DAY").contains(word)) {
                throw error("expected MILLISECOND, SECOND, MINUTE, HOUR or DAY in the watermark's interval", unit);
            }
            skipSpace();
        }
        if (pos < text.length() && text.charAt(pos) != ',' && text.charAt(pos) != ')') {
            throw error(
                    "the watermark of " + column + " must be " + column + " or " + column
                            + " - INTERVAL '...' SECOND (bounded out-of-orderness)",
                    pos);
        }
        return column;
    }

    /** Whether {@code PRIMARY KEY} comes next; if so, reads it. */
    private boolean primaryKeyAhead() {
        int save = pos;
        if (keyword("PRIMARY")) {
            skipSpace();
            if (keyword("KEY")) {
                return true;
            }
        }
        pos = save;
        return false;
    }

    /** {@code (c1, ...) [NOT ENFORCED]} after PRIMARY KEY, as Flink's DDL writes it. */
    private List<String> primaryKey(String table) {
        skipSpace();
        expect('(');
        List<String> key = new ArrayList<>();
        do {
            skipSpace();
            int start = pos;
            String column = identifier("a column name");
            if (key.contains(column)) {
                throw error("the primary key of " + table + " names " + column + " twice", start);
            }
            key.add(column);
            skipSpace();
        } while (accept(','));
        expect(')');
        skipSpace();
        int save = pos;
        if (keyword("NOT")) {
            skipSpace();
            if (!keyword("ENFORCED")) {
                throw error("expected ENFORCED after NOT", save);
            }
        }
        return key;
    }

    /** Reads the next word if it is {@code word} (any letter case). */
    private boolean keyword(String word) {
        int save = pos;
        if (word().equalsIgnoreCase(word)) {
            return true;
        }
        pos = save;
        return false;
    }

    private SqlType type() {
        int start = pos;
        String word = word().toUpperCase(Locale.ROOT);
        if (word.isEmpty()) {
            throw error("expected a type", start);
        }
        List<Integer> args = arguments();
        SqlType type = switch (word) {
            case "TINYINT" -> SqlType.of(SqlType.Kind.TINYINT);
            case "SMALLINT" -> SqlType.of(SqlType.Kind.SMALLINT);
            case "INT", "INTEGER" -> SqlType.of(SqlType.Kind.INT);
            case "BIGINT" -> SqlType.BIGINT;
            case "DECIMAL", "DEC", "NUMERIC" -> decimal(args, start);
            case "FLOAT", "REAL" -> SqlType.of(SqlType.Kind.FLOAT);
            case "DOUBLE" -> {
                skipSpace();
                int save = pos;
                if (!word().equalsIgnoreCase("PRECISION")) {
                    pos = save;
                }
                yield SqlType.DOUBLE;
            }
            case "CHAR", "VARCHAR" -> SqlType.STRING.named(word + (args.isEmpty() ? "" : "(" + args.get(0) + ")"));
            case "STRING" -> SqlType.STRING;
            case "BOOLEAN" -> SqlType.BOOLEAN;
            case "DATE" -> SqlType.of(SqlType.Kind.DATE);
            case "TIME" -> {
                int p = args.isEmpty() ? 0 : args.get(0);
                if (p > 9) {
                    throw error("TIME(p) needs 0 <= p <= 9", start);
                }
                withoutTimeZone("TIME(p)");
                yield SqlType.time(p);
            }
            case "TIMESTAMP" -> {
                int p = args.isEmpty() ? 6 : args.get(0);
                if (p > 9) {
                    throw error("TIMESTAMP(p) needs 0 <= p <= 9", start);
                }
                withoutTimeZone("TIMESTAMP(p)");
                yield SqlType.timestamp(p);
            }
            default ->
                throw error(
                        "unknown type " + word + "; known: TINYINT, SMALLINT, INT, BIGINT, DECIMAL(p, s),"
                                + " FLOAT, DOUBLE, CHAR(n), VARCHAR(n), STRING, BOOLEAN, DATE, TIME(p), TIMESTAMP(p)",
                        start);
        };
        return type;
    }

    /** An optional {@code WITHOUT TIME ZONE} after {@code type}. */
    private void withoutTimeZone(String type) {
        skipSpace();
        int save = pos;
        if (word().equalsIgnoreCase("WITHOUT")) {
            for (String w : new String[] {"TIME", "ZONE"}) {
                skipSpace();
                if (!word().equalsIgnoreCase(w)) {
                    throw error("expected " + type + " WITHOUT TIME ZONE", save);
                }
            }
        } else {
            pos = save;
        }
    }

    /** A trailing {@code NOT NULL} (true) or {@code NULL} (false, as nothing). */
    private boolean notNull() {
        skipSpace();
        int save = pos;
        String next = word();
        if (next.equalsIgnoreCase("NOT")) {
            skipSpace();
            if (!word().equalsIgnoreCase("NULL")) {
                throw error("expected NULL after NOT", save);
            }
            return true;
        }
        if (!next.equalsIgnoreCase("NULL")) {
            pos = save;
        }
        return false;
    }

    private SqlType decimal(List<Integer> args, int start) {
        int precision = args.isEmpty() ? 10 : args.get(0);
        int scale = args.size() < 2 ? 0 : args.get(1);
        if (args.size() > 2 || precision < 1 || precision > SqlType.MAX_PRECISION || scale > precision) {
            throw error("DECIMAL(p, s) needs 1 <= p <= " + SqlType.MAX_PRECISION + " and 0 <= s <= p", start);
        }
        return SqlType.decimal(precision, scale);
    }

    private List<Integer> arguments() {
        List<Integer> out = new ArrayList<>();
        skipSpace();
        if (!accept('(')) {
            return out;
        }
        do {
            skipSpace();
            int start = pos;
            while (pos < text.length() && Character.isDigit(text.charAt(pos))) {
                pos++;
            }
            if (start == pos || pos - start > 4) {
                throw error("expected a number", start);
            }
            out.add(Integer.parseInt(text.substring(start, pos)));
            skipSpace();
        } while (accept(','));
        expect(')');
        return out;
    }

    private String identifier(String what) {
        if (accept('`')) {
            StringBuilder sb = new StringBuilder();
            while (true) {
                if (pos >= text.length()) {
                    throw error("unclosed ` in " + what, pos);
                }
                char c = text.charAt(pos++);
                if (c == '`') {
                    if (pos < text.length() && text.charAt(pos) == '`') {
                        pos++;
                    } else {
                        break;
                    }
                }
                sb.append(c);
            }
            if (sb.length() == 0) {
                throw error("empty name", pos - 2);
            }
            return sb.toString();
        }
        String w = word();
        if (w.isEmpty()) {
            throw error("expected " + what, pos);
        }
        return w;
    }

    private String word() {
        int start = pos;
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (!(Character.isLetterOrDigit(c) || c == '_' || c == '$') || (pos == start && Character.isDigit(c))) {
                break;
            }
            pos++;
        }
        return text.substring(start, pos);
    }

    private void skipSpace() {
        while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
            pos++;
        }
    }

    private boolean accept(char c) {
        if (pos < text.length() && text.charAt(pos) == c) {
            pos++;
            return true;
        }
        return false;
    }

    private void expect(char c) {
        if (!accept(c)) {
            throw error("expected '" + c + "'", pos);
        }
    }

    private InvalidQueryException error(String message, int at) {
        String found = at < text.length() ? "'" + text.charAt(at) + "'" : "the end";
        return new InvalidQueryException("schema: " + message + " at position " + at + " (found " + found + ")", at);
    }
}
