package io.flinkivm.sql.translate;

import io.flinkivm.core.window.WindowSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import org.apache.calcite.sql.JoinConditionType;
import org.apache.calcite.sql.JoinType;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlIntervalLiteral;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.parser.SqlParserUtil;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * The FROM clause: the table references (aliases) in order, the conditions of their inner joins, and
 * name resolution of column references against them (qualified by an alias, or unqualified and
 * unambiguous), with Flink SQL's case-sensitive names.
 */
final class Scope {

    /**
     * A table reference of FROM: its alias (the table's name if none), path and schema, and its window
     * table function (null if none; the schema then ends with the window's columns).
     */
    record Alias(int index, String name, List<String> path, SqlTable table, SqlParserPos pos, WindowCall window) {}

    /** A resolved column reference: the alias and the column's index in its table. */
    record ColumnRef(int alias, int column) {}

    private final SqlTranslation.TableResolver catalog;
    private final SqlErrors errors;
    private final List<Alias> aliases = new ArrayList<>();
    private final List<SqlNode> conditions = new ArrayList<>();

    Scope(SqlTranslation.TableResolver catalog, SqlErrors errors) {
        this.catalog = catalog;
        this.errors = errors;
    }

    /** Reads a FROM clause: its tables and the conjuncts of its ON conditions. */
    void from(SqlNode node) {
        if (node == null) {
            throw errors.unsupported(null, "SELECT without FROM", "name the tables to join");
        }
        if (node instanceof SqlJoin join) {
            from(join.getLeft());
            from(join.getRight());
            if (join.isNatural()) {
                throw errors.unsupported(join, "NATURAL JOIN", "write the equalities in ON");
            }
            JoinType type = join.getJoinType();
            switch (type) {
                case INNER, COMMA, CROSS -> {}
                case LEFT, RIGHT, FULL ->
                    throw errors.unsupported(
                            join.getJoinTypeNode(),
                            type.name() + " OUTER JOIN",
                            "outer joins produce NULLs, and a view of positive semiring payloads cannot retract the padded"
                                    + " rows when a match arrives; use an inner join");
                default -> throw errors.unsupported(join.getJoinTypeNode(), type.name() + " join", "use an inner join");
            }
            if (join.getConditionType() == JoinConditionType.USING) {
                throw errors.unsupported(join.getCondition(), "JOIN ... USING", "write the equalities in ON");
            }
            if (join.getConditionType() == JoinConditionType.ON && join.getCondition() != null) {
                where(join.getCondition());
            }
            return;
        }
        table(node);
    }

    private void table(SqlNode node) {
        SqlNode table = node;
        String alias = null;
        SqlParserPos aliasPos = node.getParserPosition();
        if (node.getKind() == SqlKind.AS) {
            SqlCall as = (SqlCall) node;
            table = as.operand(0);
            if (as.operandCount() > 2 && table instanceof SqlIdentifier) {
                throw errors.unsupported(as.operand(2), "column aliases in FROM", "name the columns as the table does");
            }
            alias = ((SqlIdentifier) as.operand(1)).getSimple();
            aliasPos = as.operand(1).getParserPosition();
        }
        if (table.getKind() == SqlKind.TABLE_REF) {
            throw errors.unsupported(table, "table hints", "drop the hint");
        }
        if (table.getKind() == SqlKind.COLLECTION_TABLE) {
            window(node, (SqlCall) table, alias, aliasPos);
            return;
        }
        if (!(table instanceof SqlIdentifier id)) {
            throw errors.unsupported(
                    table,
                    SqlErrors.describe(table) + " in FROM",
                    "FROM takes tables only (no subqueries, table functions, UNNEST or LATERAL)");
        }
        List<String> path = List.copyOf(id.names);
        SqlTable schema = catalog.resolve(path);
        if (schema == null) {
            throw errors.invalid(id, "unknown table " + String.join(".", path));
        }
        add(node, alias, path, schema, aliasPos, null);
    }

    private void add(SqlNode node, String alias, List<String> path, SqlTable schema, SqlParserPos pos, WindowCall w) {
        String name = alias != null ? alias : path.get(path.size() - 1);
        for (Alias a : aliases) {
            if (a.name().equals(name)) {
                throw errors.invalid(
                        node, "the name " + name + " is used twice in FROM; give each table its own alias");
            }
        }
        aliases.add(new Alias(aliases.size(), name, path, schema, pos, w));
    }

    /**
     * {@code TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), size [, offset]))}, {@code HOP(..., slide, size [,
     * offset])} or {@code CUMULATE(..., step, size [, offset])}: the table with {@code window_start} and
     * {@code window_end} (TIMESTAMPs of the time column's precision, never NULL) after its columns.
     */
    private void window(SqlNode node, SqlCall collection, String alias, SqlParserPos aliasPos) {
        SqlNode inner = collection.operand(0);
        String function = inner instanceof SqlCall c ? c.getOperator().getName().toUpperCase(Locale.ROOT) : "";
        int intervals = switch (function) {
            case "TUMBLE" -> 1;
            case "HOP", "CUMULATE" -> 2;
            default -> -1;
        };
        if (intervals < 0) {
            throw errors.unsupported(
                    collection,
                    "the table function " + SqlErrors.describe(inner),
                    "FROM takes tables and the window table functions TUMBLE, HOP and CUMULATE");
        }
        List<SqlNode> operands = ((SqlCall) inner).getOperandList();
        for (SqlNode o : operands) {
            if (o != null && o.getKind() == SqlKind.ARGUMENT_ASSIGNMENT) {
                throw errors.unsupported(o, "named arguments of " + function, "pass the arguments by position");
            }
        }
        String usage = function + "(TABLE t, DESCRIPTOR(time column), "
                + (function.equals("TUMBLE") ? "size" : function.equals("HOP") ? "slide, size" : "step, size")
                + " [, offset])";
        if (operands.size() != 2 + intervals && operands.size() != 3 + intervals) {
            throw errors.invalid(inner, function + " takes " + usage);
        }
        SqlNode data = operands.get(0);
        if (data.getKind() == SqlKind.EXPLICIT_TABLE) {
            data = ((SqlCall) data).operand(0);
        }
        if (!(data instanceof SqlIdentifier id)) {
            throw errors.unsupported(
                    operands.get(0), SqlErrors.describe(operands.get(0)) + " in " + function, "write " + usage);
        }
        List<String> path = List.copyOf(id.names);
        SqlTable schema = catalog.resolve(path);
        if (schema == null) {
            throw errors.invalid(id, "unknown table " + String.join(".", path));
        }
        SqlNode descriptor = operands.get(1);
        if (!(descriptor instanceof SqlCall d)
                || !(d.getKind() == SqlKind.DESCRIPTOR
                        || d.getOperator().getName().equalsIgnoreCase("DESCRIPTOR"))
                || ((SqlCall) descriptor).operandCount() != 1
                || !(((SqlCall) descriptor).operand(0) instanceof SqlIdentifier time)) {
            throw errors.invalid(descriptor, function + "'s second argument is DESCRIPTOR(time column); " + usage);
        }
        String timeName = time.getSimple();
        if (schema.timeAttribute() == null) {
            throw errors.invalid(
                    id,
                    function + " over " + schema.name() + " needs its event-time attribute: declare WATERMARK FOR "
                            + timeName + " AS " + timeName + " - INTERVAL '...' SECOND in its schema");
        }
        if (!schema.timeAttribute().equals(timeName)) {
            throw errors.invalid(
                    time,
                    "DESCRIPTOR(" + timeName + ") is not the event-time attribute of " + schema.name() + ", which is "
                            + schema.timeAttribute() + " (its WATERMARK's column)");
        }
        long[] millis = new long[operands.size() - 2];
        for (int i = 0; i < millis.length; i++) {
            millis[i] = intervalMillis(operands.get(2 + i), function);
        }
        WindowSpec spec;
        try {
            spec = switch (function) {
                case "TUMBLE" -> new WindowSpec(WindowSpec.Kind.TUMBLE, millis[0], millis[0], 0);
                case "HOP" -> new WindowSpec(WindowSpec.Kind.HOP, millis[1], millis[0], 0);
                default -> new WindowSpec(WindowSpec.Kind.CUMULATE, millis[1], millis[0], 0);
            };
            if (millis.length > intervals) {
                spec = new WindowSpec(spec.kind(), spec.size(), spec.step(), millis[intervals]);
            }
        } catch (IllegalArgumentException e) {
            throw errors.invalid(inner, e.getMessage());
        }
        int timeColumn = schema.indexOf(timeName);
        SqlType timeType = schema.columns().get(timeColumn).type();
        List<SqlTable.Column> columns = new ArrayList<>(schema.columns());
        for (String c : List.of(WindowCall.START, WindowCall.END)) {
            if (schema.indexOf(c) >= 0) {
                throw errors.invalid(id, schema.name() + " has a column " + c + ", which " + function + " adds too");
            }
            // TIMESTAMP(3) as in Flink SQL; above precision 6 the time column's (tuples then hold nanoseconds).
            columns.add(new SqlTable.Column(
                    c, SqlType.timestamp(timeType.precision() > 6 ? timeType.precision() : 3), false));
        }
        SqlTable windowed = new SqlTable(schema.name(), columns, schema.primaryKey(), schema.timeAttribute());
        add(
                node,
                alias,
                path,
                windowed,
                aliasPos,
                new WindowCall(spec, timeColumn, schema.columns().size()));
    }

    /** The milliseconds of an interval literal ({@code INTERVAL '10' SECOND}) of a window table function. */
    private long intervalMillis(SqlNode node, String function) {
        if (!(node instanceof SqlIntervalLiteral literal)) {
            throw errors.invalid(node, function + "'s sizes are interval literals, e.g. INTERVAL '10' SECOND");
        }
        SqlIntervalLiteral.IntervalValue value = literal.getValueAs(SqlIntervalLiteral.IntervalValue.class);
        if (value.getIntervalQualifier().isYearMonth()) {
            throw errors.unsupported(node, "a window of months or years", "give its size in days or less");
        }
        return SqlParserUtil.intervalToMillis(value);
    }

    /** Adds the conjuncts of a WHERE or ON condition ({@code TRUE} adds none). */
    void where(SqlNode condition) {
        if (condition.getKind() == SqlKind.AND) {
            for (SqlNode operand : ((SqlCall) condition).getOperandList()) {
                where(operand);
            }
        } else if (!(condition instanceof SqlLiteral l
                && l.getTypeName() == SqlTypeName.BOOLEAN
                && Boolean.TRUE.equals(l.getValue()))) {
            conditions.add(condition);
        }
    }

    List<Alias> aliases() {
        return aliases;
    }

    Alias alias(int index) {
        return aliases.get(index);
    }

    /** The conjuncts of WHERE and every ON, in the order written. */
    List<SqlNode> conditions() {
        return conditions;
    }

    /** The alias and column {@code id} names. */
    ColumnRef resolve(SqlIdentifier id) {
        if (id.isStar()) {
            throw errors.unsupported(id, "*", "list the columns (or write * alone in SELECT)");
        }
        List<String> names = id.names;
        if (names.size() > 2) {
            throw errors.unsupported(id, "the column reference " + id, "qualify columns by their table's alias only");
        }
        String columnName = names.get(names.size() - 1);
        if (names.size() == 2) {
            Alias alias = byName(names.get(0));
            if (alias == null) {
                throw errors.invalid(
                        id, "unknown table or alias " + names.get(0) + " in " + id + "; FROM has " + aliasNames());
            }
            int column = alias.table().indexOf(columnName);
            if (column < 0) {
                throw errors.invalid(
                        id,
                        "column " + columnName + " not found in " + alias.name() + " ("
                                + alias.table().columnList() + ")");
            }
            return new ColumnRef(alias.index(), column);
        }
        ColumnRef found = null;
        for (Alias a : aliases) {
            int c = a.table().indexOf(columnName);
            if (c >= 0) {
                if (found != null) {
                    throw errors.invalid(
                            id,
                            "column " + columnName + " is ambiguous: it is in "
                                    + aliases.get(found.alias()).name() + " and " + a.name() + "; qualify it");
                }
                found = new ColumnRef(a.index(), c);
            }
        }
        if (found == null) {
            throw errors.invalid(id, "column " + columnName + " not found in any table of FROM (" + aliasNames() + ")");
        }
        return found;
    }

    /** The aliases whose columns {@code node} uses ({@code *} uses none). */
    Set<Integer> aliasesOf(SqlNode node) {
        Set<Integer> out = new TreeSet<>();
        collectAliases(node, out);
        return out;
    }

    private void collectAliases(SqlNode node, Set<Integer> out) {
        if (node instanceof SqlIdentifier id) {
            if (!id.isStar()) {
                out.add(resolve(id).alias());
            }
        } else if (node instanceof SqlNodeList list) {
            for (SqlNode item : list) {
                collectAliases(item, out);
            }
        } else if (node instanceof SqlCall call) {
            for (SqlNode operand : call.getOperandList()) {
                if (operand != null) {
                    collectAliases(operand, out);
                }
            }
        }
    }

    /** The alias called {@code name}, or null. */
    Alias byName(String name) {
        for (Alias a : aliases) {
            if (a.name().equals(name)) {
                return a;
            }
        }
        return null;
    }

    SqlTable.Column column(ColumnRef ref) {
        return aliases.get(ref.alias()).table().columns().get(ref.column());
    }

    private String aliasNames() {
        List<String> out = new ArrayList<>();
        for (Alias a : aliases) {
            out.add(a.name());
        }
        return String.join(", ", out);
    }
}
