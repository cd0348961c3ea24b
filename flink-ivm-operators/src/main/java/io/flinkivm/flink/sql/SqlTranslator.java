package io.flinkivm.flink.sql;

import io.flinkivm.core.plan.UnsupportedPlanException;
import io.flinkivm.core.query.Atom;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.Constant;
import io.flinkivm.core.query.InvalidQueryException;
import io.flinkivm.core.query.Term;
import io.flinkivm.core.query.Variable;
import io.flinkivm.core.semiring.BooleanSemiring;
import io.flinkivm.core.semiring.MaxPlusSemiring;
import io.flinkivm.core.semiring.MinPlusSemiring;
import io.flinkivm.core.semiring.NaturalSemiring;
import io.flinkivm.core.semiring.Semiring;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.avatica.util.Quoting;
import org.apache.calcite.sql.JoinConditionType;
import org.apache.calcite.sql.JoinType;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlDateLiteral;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlSelectKeyword;
import org.apache.calcite.sql.SqlTimestampLiteral;
import org.apache.calcite.sql.SqlUnknownLiteral;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.validate.SqlConformanceEnum;
import org.apache.calcite.util.DateString;
import org.apache.calcite.util.TimestampString;

/**
 * Translates one SQL query into a {@link SqlTranslation}: parses it with Calcite's parser (Flink SQL's
 * lexical rules: backticks, case-sensitive names), resolves names against the tables, and maps the
 * select-project-join-aggregate subset onto a conjunctive query. Everything outside the subset is
 * refused with the construct, its position and what is supported.
 */
final class SqlTranslator {

    /** What every refusal ends with. */
    static final String SUPPORTED = "flink-ivm maintains SELECT [DISTINCT] columns and at most one aggregate"
            + " (COUNT(*), SUM of a product of per-table factors, MIN or MAX of a sum of per-table terms)"
            + " FROM tables joined with [INNER] JOIN ... ON, CROSS JOIN or commas, WHERE and ON a conjunction (AND)"
            + " of column = column and column = literal, GROUP BY columns";

    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final long EXACT_DOUBLE = 1L << 53;

    private static final SqlParser.Config PARSER = SqlParser.config()
            .withQuoting(Quoting.BACK_TICK)
            .withUnquotedCasing(Casing.UNCHANGED)
            .withQuotedCasing(Casing.UNCHANGED)
            .withCaseSensitive(true)
            .withConformance(SqlConformanceEnum.LENIENT);

    private final String sql;
    private final SqlTranslation.TableResolver catalog;

    /** The FROM list's aliases, in order. */
    private final List<Alias> aliases = new ArrayList<>();
    /** Column references by (alias, column): an index into {@link #parent}. */
    private final Map<Long, Integer> columnIds = new HashMap<>();

    private final List<ColumnRef> refs = new ArrayList<>();
    private final List<Integer> parent = new ArrayList<>();
    /** Constants of equivalence classes, by the class's root (re-keyed on union). */
    private final Map<Integer, Fixed> constants = new HashMap<>();

    private record Alias(String name, List<String> path, SqlTable table, SqlParserPos pos) {}

    private record ColumnRef(int alias, int column, SqlParserPos pos) {
        long key() {
            return ((long) alias << 32) | column;
        }
    }

    /** A class of columns fixed to a literal: its tuple value and where it was written. */
    private record Fixed(Object value, String text, SqlParserPos pos) {}

    private enum ItemKind {
        COLUMN,
        AGGREGATE,
        LITERAL
    }

    private record Item(ItemKind kind, String name, int ref, SqlNode node, Object literal, SqlType literalType) {}

    SqlTranslator(String sql, SqlTranslation.TableResolver catalog) {
        this.sql = Objects.requireNonNull(sql, "sql");
        this.catalog = Objects.requireNonNull(catalog, "catalog");
    }

    SqlTranslation translate() {
        SqlNode node = parse();
        if (!(node instanceof SqlSelect select)) {
            throw unsupported(node, describe(node), "the query must be a single SELECT");
        }
        checkClauses(select);
        from(select.getFrom());
        if (select.getWhere() != null) {
            condition(select.getWhere());
        }
        List<Item> items = selectList(select);
        List<Integer> groupBy = groupBy(select.getGroup());
        Item aggregate = null;
        for (Item item : items) {
            if (item.kind() == ItemKind.AGGREGATE) {
                if (aggregate != null) {
                    throw unsupported(
                            item.node(),
                            "a second aggregate " + callName(item.node()),
                            "a view has one payload per row, so one aggregate per query");
                }
                aggregate = item;
            }
        }
        boolean distinct = select.isDistinct();
        if (distinct && aggregate != null) {
            throw unsupported(
                    select.getModifierNode(SqlSelectKeyword.DISTINCT),
                    "SELECT DISTINCT with an aggregate",
                    "write either SELECT DISTINCT columns or an aggregate with GROUP BY");
        }
        if (aggregate == null && groupBy == null && !distinct) {
            throw unsupported(
                    select.getSelectList(),
                    "SELECT without DISTINCT, GROUP BY or an aggregate",
                    "SQL keeps duplicate rows here (bag semantics), which a view of distinct rows cannot give; write"
                            + " SELECT DISTINCT for the set of rows, or add COUNT(*) and GROUP BY for their multiplicities");
        }
        if (aggregate != null || groupBy != null) {
            List<Integer> grouped = groupBy == null ? List.of() : groupBy;
            for (Item item : items) {
                if (item.kind() == ItemKind.COLUMN && !grouped.contains(item.ref())) {
                    throw invalid(
                            item.node(),
                            "column " + item.node() + " is neither grouped nor aggregated; add it to" + " GROUP BY");
                }
            }
        }
        // Free variables: the grouped columns (or the selected ones of a SELECT DISTINCT), one per class.
        List<Integer> freeColumns = groupBy != null ? groupBy : new ArrayList<>();
        if (groupBy == null && aggregate == null) {
            for (Item item : items) {
                if (item.kind() == ItemKind.COLUMN) {
                    freeColumns.add(item.ref());
                }
            }
        }
        Map<Integer, String> names = variableNames();
        List<String> head = new ArrayList<>();
        for (int ref : freeColumns) {
            int root = find(ref);
            if (!constants.containsKey(root) && !head.contains(names.get(root))) {
                head.add(names.get(root));
            }
        }
        return build(items, aggregate, head, names);
    }

    private SqlNode parse() {
        try {
            return SqlParser.create(sql, PARSER).parseQuery();
        } catch (SqlParseException e) {
            String message = e.getMessage() == null ? "syntax error" : e.getMessage();
            int cut = message.indexOf('\n');
            String first = (cut < 0 ? message : message.substring(0, cut)).trim();
            if (first.endsWith(".")) {
                first = first.substring(0, first.length() - 1);
            }
            SqlParserPos pos = e.getPos();
            int offset = pos == null ? -1 : offset(pos);
            if (pos != null && !first.contains("line " + pos.getLineNum())) {
                first += " " + at(pos);
            }
            throw new InvalidQueryException("invalid SQL: " + first, offset);
        }
    }

    private void checkClauses(SqlSelect select) {
        if (select.isKeywordPresent(SqlSelectKeyword.STREAM)) {
            throw unsupported(select.getModifierNode(SqlSelectKeyword.STREAM), "SELECT STREAM", "drop STREAM");
        }
        if (select.getHaving() != null) {
            throw unsupported(select.getHaving(), "HAVING", "filter the maintained view downstream");
        }
        if (select.getWindowList() != null && !select.getWindowList().isEmpty()) {
            throw unsupported(select.getWindowList(), "WINDOW", "windows are not conjunctive queries");
        }
        if (select.getQualify() != null) {
            throw unsupported(select.getQualify(), "QUALIFY", "filter the maintained view downstream");
        }
        if (select.getOrderList() != null && !select.getOrderList().isEmpty()) {
            throw unsupported(select.getOrderList(), "ORDER BY", "a maintained view has no order");
        }
        if (select.getFetch() != null || select.getOffset() != null) {
            SqlNode n = select.getFetch() != null ? select.getFetch() : select.getOffset();
            throw unsupported(n, "LIMIT/OFFSET/FETCH", "a maintained view has no order; filter it downstream");
        }
        if (select.hasHints()) {
            throw unsupported(select.getHints(), "query hints", "drop the hint");
        }
    }

    // ---- FROM ----

    private void from(SqlNode node) {
        if (node == null) {
            throw unsupported(null, "SELECT without FROM", "name the tables to join");
        }
        if (node instanceof SqlJoin join) {
            from(join.getLeft());
            from(join.getRight());
            JoinType type = join.getJoinType();
            if (join.isNatural()) {
                throw unsupported(join, "NATURAL JOIN", "write the equalities in ON");
            }
            switch (type) {
                case INNER, COMMA, CROSS -> {}
                case LEFT, RIGHT, FULL ->
                    throw unsupported(
                            join.getJoinTypeNode(),
                            type.name() + " OUTER JOIN",
                            "outer joins produce NULLs, and a view of positive semiring payloads cannot retract the padded"
                                    + " rows when a match arrives; use an inner join");
                default -> throw unsupported(join.getJoinTypeNode(), type.name() + " join", "use an inner join");
            }
            JoinConditionType ct = join.getConditionType();
            if (ct == JoinConditionType.USING) {
                throw unsupported(join.getCondition(), "JOIN ... USING", "write the equalities in ON");
            }
            if (ct == JoinConditionType.ON && join.getCondition() != null) {
                condition(join.getCondition());
            }
            return;
        }
        SqlNode table = node;
        String alias = null;
        SqlParserPos aliasPos = node.getParserPosition();
        if (node.getKind() == SqlKind.AS) {
            SqlCall as = (SqlCall) node;
            if (as.operandCount() > 2) {
                throw unsupported(as.operand(2), "column aliases in FROM", "name the columns as the table does");
            }
            table = as.operand(0);
            alias = ((SqlIdentifier) as.operand(1)).getSimple();
            aliasPos = as.operand(1).getParserPosition();
        }
        if (table.getKind() == SqlKind.TABLE_REF) {
            throw unsupported(table, "table hints", "drop the hint");
        }
        if (!(table instanceof SqlIdentifier id)) {
            throw unsupported(
                    table,
                    describe(table) + " in FROM",
                    "FROM takes tables only (no subqueries, table functions, UNNEST or LATERAL)");
        }
        List<String> path = List.copyOf(id.names);
        SqlTable schema = catalog.resolve(path);
        if (schema == null) {
            throw invalid(id, "unknown table " + String.join(".", path));
        }
        String name = alias != null ? alias : path.get(path.size() - 1);
        for (Alias a : aliases) {
            if (a.name().equals(name)) {
                throw invalid(node, "the name " + name + " is used twice in FROM; give each table its own alias");
            }
        }
        aliases.add(new Alias(name, path, schema, aliasPos));
    }

    // ---- conditions ----

    private void condition(SqlNode node) {
        if (node instanceof SqlLiteral l
                && l.getTypeName() == org.apache.calcite.sql.type.SqlTypeName.BOOLEAN
                && Boolean.TRUE.equals(l.getValue())) {
            return; // ON TRUE
        }
        if (!(node instanceof SqlCall call)) {
            throw unsupported(node, describe(node) + " as a condition", "conditions are equalities joined by AND");
        }
        switch (call.getKind()) {
            case AND -> {
                for (SqlNode operand : call.getOperandList()) {
                    condition(operand);
                }
            }
            case EQUALS -> equality(call);
            case OR ->
                throw unsupported(
                        call,
                        "OR",
                        "a conjunctive query has no disjunction; conditions are equalities"
                                + " joined by AND (maintain one view per disjunct)");
            case NOT -> throw unsupported(call, "NOT", "negation is not conjunctive");
            case NOT_EQUALS, LESS_THAN, LESS_THAN_OR_EQUAL, GREATER_THAN, GREATER_THAN_OR_EQUAL, BETWEEN ->
                throw unsupported(
                        call,
                        "the comparison " + call.getOperator().getName(),
                        "only equalities select or join: the paper's queries are equi-joins, an inequality join"
                                + " has no O(1) update");
            case IN, NOT_IN, EXISTS, SOME, ALL, SCALAR_QUERY ->
                throw unsupported(call, describe(call), "subqueries are not supported; join the table in FROM");
            default -> throw unsupported(call, describe(call), "conditions are equalities joined by AND");
        }
    }

    private void equality(SqlCall call) {
        SqlNode left = call.operand(0);
        SqlNode right = call.operand(1);
        boolean leftColumn = left instanceof SqlIdentifier;
        boolean rightColumn = right instanceof SqlIdentifier;
        if (leftColumn && rightColumn) {
            int a = column((SqlIdentifier) left);
            int b = column((SqlIdentifier) right);
            SqlType ta = type(a);
            SqlType tb = type(b);
            if (!ta.joinsWith(tb)) {
                throw unsupported(
                        call,
                        "the equality of " + left + " (" + ta + ") and " + right + " (" + tb + ")",
                        "equalities join columns of one type family (integers, decimals, floating point, strings, ...);"
                                + " cast in a view over the table first");
            }
            union(a, b, call);
        } else if (leftColumn || rightColumn) {
            SqlIdentifier col = (SqlIdentifier) (leftColumn ? left : right);
            SqlNode lit = leftColumn ? right : left;
            int ref = column(col);
            Object value = literalFor(lit, type(ref), col);
            fix(find(ref), new Fixed(value, lit.toString(), lit.getParserPosition()), call);
        } else {
            throw unsupported(call, "the equality " + call, "an equality compares a column with a column or a literal");
        }
    }

    private Object literalFor(SqlNode node, SqlType type, SqlIdentifier column) {
        SqlLiteral literal = literal(node);
        if (literal == null) {
            throw unsupported(node, describe(node) + " in an equality", "compare a column with a column or a literal");
        }
        try {
            if (literal.getTypeName() == org.apache.calcite.sql.type.SqlTypeName.NULL) {
                throw unsupported(
                        node, "= NULL", "a comparison with NULL is never true; flink-ivm's tuples have no NULLs");
            }
            if (type.isNumeric() && literal instanceof SqlNumericLiteral) {
                BigDecimal v = literal.bigDecimalValue();
                if (type.isInteger() && v.stripTrailingZeros().scale() > 0) {
                    throw new IllegalArgumentException(v.toPlainString() + " is not an integer");
                }
                return type.isInteger()
                        ? type.toTupleValue(v.longValueExact())
                        : type.isApproximate() ? type.toTupleValue(v.doubleValue()) : type.toTupleValue(v);
            }
            return switch (type.kind()) {
                case STRING ->
                    literal instanceof SqlCharStringLiteral
                            ? literal.getValueAs(String.class)
                            : mismatch(literal, type);
                case BOOLEAN ->
                    literal.getTypeName() == org.apache.calcite.sql.type.SqlTypeName.BOOLEAN
                            ? literal.booleanValue()
                            : mismatch(literal, type);
                case DATE ->
                    literal instanceof SqlDateLiteral d
                            ? d.getValueAs(DateString.class).toString()
                            : literal instanceof SqlCharStringLiteral
                                    ? LocalDate.parse(literal.getValueAs(String.class))
                                            .toString()
                                    : mismatch(literal, type);
                case TIMESTAMP ->
                    literal instanceof SqlTimestampLiteral t
                            ? LocalDateTime.parse(t.getValueAs(TimestampString.class)
                                            .toString()
                                            .replace(' ', 'T'))
                                    .toString()
                            : literal instanceof SqlCharStringLiteral
                                    ? LocalDateTime.parse(literal.getValueAs(String.class)
                                                    .replace(' ', 'T'))
                                            .toString()
                                    : mismatch(literal, type);
                default -> mismatch(literal, type);
            };
        } catch (ArithmeticException | DateTimeParseException | IllegalArgumentException e) {
            if (e instanceof UnsupportedPlanException u) {
                throw u;
            }
            throw unsupported(
                    node,
                    "the literal " + node + " compared with " + column + " (" + type + ")",
                    (e.getMessage() == null ? "it is not a value of that type" : e.getMessage())
                            + "; compare a column with a literal of its type");
        }
    }

    private static Object mismatch(SqlLiteral literal, SqlType type) {
        throw new IllegalArgumentException("it is not a " + type + " literal");
    }

    /** The literal of {@code node}, folding a minus sign into a numeric literal; null if it is none. */
    private SqlLiteral literal(SqlNode node) {
        if (node instanceof SqlUnknownLiteral u) {
            org.apache.calcite.sql.type.SqlTypeName type = switch (u.tag.toUpperCase(java.util.Locale.ROOT)) {
                case "DATE" -> org.apache.calcite.sql.type.SqlTypeName.DATE;
                case "TIMESTAMP" -> org.apache.calcite.sql.type.SqlTypeName.TIMESTAMP;
                case "TIME" -> org.apache.calcite.sql.type.SqlTypeName.TIME;
                default -> null;
            };
            if (type == null) {
                throw unsupported(
                        node, "the literal " + node, "use numeric, string, boolean, DATE or TIMESTAMP literals");
            }
            try {
                return u.resolve(type);
            } catch (RuntimeException e) {
                throw invalid(node, "malformed " + u.tag + " literal " + node);
            }
        }
        if (node instanceof SqlLiteral l) {
            return l;
        }
        if (node.getKind() == SqlKind.MINUS_PREFIX && ((SqlCall) node).operand(0) instanceof SqlNumericLiteral n) {
            return SqlLiteral.createNegative(n, node.getParserPosition());
        }
        return null;
    }

    private void fix(int root, Fixed value, SqlNode where) {
        Fixed known = constants.get(root);
        if (known != null && !known.value().equals(value.value())) {
            throw unsupported(
                    where,
                    "the equalities with " + known.text() + " " + at(known.pos()) + " and " + value.text(),
                    "together they are never true, so the view is always empty");
        }
        constants.put(root, value);
    }

    // ---- columns ----

    private int column(SqlIdentifier id) {
        ColumnRef ref = resolve(id);
        Integer known = columnIds.get(ref.key());
        if (known != null) {
            return known;
        }
        int index = refs.size();
        refs.add(ref);
        parent.add(index);
        columnIds.put(ref.key(), index);
        SqlType type = type(index);
        if (type.kind() == SqlType.Kind.UNSUPPORTED) {
            throw unsupported(
                    id,
                    "column " + id + " of type " + type,
                    "columns of types TINYINT, SMALLINT, INT, BIGINT,"
                            + " DECIMAL, FLOAT, DOUBLE, CHAR, VARCHAR, STRING, BOOLEAN, DATE and TIMESTAMP can be compared,"
                            + " grouped and selected");
        }
        return index;
    }

    /** The alias and column {@code id} names. */
    private ColumnRef resolve(SqlIdentifier id) {
        if (id.isStar()) {
            throw unsupported(id, "*", "list the columns");
        }
        List<String> names = id.names;
        if (names.size() > 2) {
            throw unsupported(id, "the column reference " + id, "qualify columns by their table's alias only");
        }
        String columnName = names.get(names.size() - 1);
        int found = -1;
        int column = -1;
        if (names.size() == 2) {
            for (int a = 0; a < aliases.size(); a++) {
                if (aliases.get(a).name().equals(names.get(0))) {
                    found = a;
                }
            }
            if (found < 0) {
                throw invalid(
                        id, "unknown table or alias " + names.get(0) + " in " + id + "; FROM has " + aliasNames());
            }
            column = aliases.get(found).table().indexOf(columnName);
            if (column < 0) {
                throw invalid(
                        id,
                        "column " + columnName + " not found in "
                                + aliases.get(found).name() + " ("
                                + aliases.get(found).table().columnList() + ")");
            }
        } else {
            for (int a = 0; a < aliases.size(); a++) {
                int c = aliases.get(a).table().indexOf(columnName);
                if (c >= 0) {
                    if (found >= 0) {
                        throw invalid(
                                id,
                                "column " + columnName + " is ambiguous: it is in "
                                        + aliases.get(found).name() + " and "
                                        + aliases.get(a).name() + "; qualify it");
                    }
                    found = a;
                    column = c;
                }
            }
            if (found < 0) {
                throw invalid(id, "column " + columnName + " not found in any table of FROM (" + aliasNames() + ")");
            }
        }
        return new ColumnRef(found, column, id.getParserPosition());
    }

    private String aliasNames() {
        List<String> out = new ArrayList<>();
        for (Alias a : aliases) {
            out.add(a.name());
        }
        return String.join(", ", out);
    }

    private SqlType type(int ref) {
        ColumnRef r = refs.get(ref);
        return aliases.get(r.alias()).table().columns().get(r.column()).type();
    }

    private String columnName(int ref) {
        ColumnRef r = refs.get(ref);
        return aliases.get(r.alias()).table().columns().get(r.column()).name();
    }

    private int find(int ref) {
        int r = ref;
        while (parent.get(r) != r) {
            r = parent.get(r);
        }
        return r;
    }

    private void union(int a, int b, SqlNode where) {
        int ra = find(a);
        int rb = find(b);
        if (ra == rb) {
            return;
        }
        int root = Math.min(ra, rb);
        int child = Math.max(ra, rb);
        parent.set(child, root);
        Fixed moved = constants.remove(child);
        if (moved != null) {
            fix(root, moved, where);
        }
    }

    // ---- SELECT and GROUP BY ----

    private List<Item> selectList(SqlSelect select) {
        List<Item> items = new ArrayList<>();
        SqlNodeList list = select.getSelectList();
        for (int i = 0; i < list.size(); i++) {
            SqlNode node = list.get(i);
            String alias = null;
            if (node.getKind() == SqlKind.AS) {
                SqlCall as = (SqlCall) node;
                alias = ((SqlIdentifier) as.operand(1)).getSimple();
                node = as.operand(0);
            }
            if (node instanceof SqlIdentifier id) {
                int ref = column(id);
                items.add(new Item(ItemKind.COLUMN, alias != null ? alias : columnName(ref), ref, node, null, null));
            } else if (isAggregate(node)) {
                items.add(new Item(ItemKind.AGGREGATE, alias != null ? alias : "EXPR$" + i, -1, node, null, null));
            } else if (literal(node) != null) {
                SqlLiteral l = literal(node);
                Object[] value = literalValue(l);
                items.add(new Item(
                        ItemKind.LITERAL, alias != null ? alias : "EXPR$" + i, -1, node, value[0], (SqlType) value[1]));
            } else {
                throw unsupported(
                        node,
                        describe(node) + " in SELECT",
                        "SELECT lists columns, literals and one aggregate; compute expressions downstream");
            }
        }
        // Calcite's (and so Flink's) rule for duplicate output names: name, name0, name1, ...
        Set<String> used = new HashSet<>();
        List<Item> out = new ArrayList<>();
        for (Item item : items) {
            String name = item.name();
            for (int k = 0; !used.add(name); k++) {
                name = item.name() + k;
            }
            out.add(new Item(item.kind(), name, item.ref(), item.node(), item.literal(), item.literalType()));
        }
        return out;
    }

    private Object[] literalValue(SqlLiteral l) {
        if (l instanceof SqlNumericLiteral) {
            BigDecimal v = l.bigDecimalValue();
            if (v.stripTrailingZeros().scale() <= 0 && v.abs().compareTo(BigDecimal.valueOf(Integer.MAX_VALUE)) <= 0) {
                SqlType t = SqlType.of(SqlType.Kind.INT);
                return new Object[] {t.toTupleValue(v.intValueExact()), t};
            }
            SqlType t = SqlType.decimal(Math.max(1, v.precision()), Math.max(0, v.scale()));
            return new Object[] {t.toTupleValue(v), t};
        }
        if (l instanceof SqlCharStringLiteral) {
            String s = l.getValueAs(String.class);
            return new Object[] {s, SqlType.STRING.named("CHAR(" + s.length() + ")")};
        }
        if (l.getTypeName() == org.apache.calcite.sql.type.SqlTypeName.BOOLEAN) {
            return new Object[] {l.booleanValue(), SqlType.BOOLEAN};
        }
        if (l instanceof SqlDateLiteral d) {
            return new Object[] {d.getValueAs(DateString.class).toString(), SqlType.of(SqlType.Kind.DATE)};
        }
        throw unsupported(l, "the literal " + l + " in SELECT", "select numeric, string, boolean or date literals");
    }

    private static boolean isAggregate(SqlNode node) {
        if (!(node instanceof SqlCall call)) {
            return false;
        }
        return call.getOperator().isAggregator()
                || call.getKind() == SqlKind.FILTER
                || call.getKind() == SqlKind.OVER
                || call.getKind() == SqlKind.WITHIN_GROUP
                || AGGREGATES.contains(call.getOperator().getName().toUpperCase(java.util.Locale.ROOT));
    }

    /** Aggregate functions by name (the parser leaves function calls unresolved). */
    private static final Set<String> AGGREGATES = Set.of(
            "COUNT",
            "SUM",
            "SUM0",
            "$SUM0",
            "MIN",
            "MAX",
            "AVG",
            "STDDEV",
            "STDDEV_POP",
            "STDDEV_SAMP",
            "VARIANCE",
            "VAR_POP",
            "VAR_SAMP",
            "COLLECT",
            "LISTAGG",
            "ARRAY_AGG",
            "FIRST_VALUE",
            "LAST_VALUE",
            "ANY_VALUE",
            "BIT_AND",
            "BIT_OR",
            "BIT_XOR",
            "EVERY",
            "BOOL_AND",
            "BOOL_OR",
            "COUNT_IF",
            "APPROX_COUNT_DISTINCT",
            "JSON_ARRAYAGG",
            "JSON_OBJECTAGG",
            "PERCENTILE_CONT",
            "PERCENTILE_DISC");

    private List<Integer> groupBy(SqlNodeList group) {
        if (group == null) {
            return null;
        }
        List<Integer> out = new ArrayList<>();
        for (SqlNode node : group) {
            if (!(node instanceof SqlIdentifier id)) {
                throw unsupported(node, describe(node) + " in GROUP BY", "GROUP BY takes columns");
            }
            int ref = column(id);
            if (!out.contains(ref)) {
                out.add(ref);
            }
        }
        return out;
    }

    // ---- the aggregate ----

    /** What an aggregate contributes: the semiring, and each alias's part of the argument (null: the one). */
    private record AggregatePlan(
            SqlTranslation.Aggregate kind,
            Semiring<?> semiring,
            String text,
            PayloadExpression[] parts,
            Payload.Mode mode,
            int scale,
            SqlType type) {}

    private AggregatePlan aggregate(Item item) {
        SqlCall call = (SqlCall) item.node();
        if (call.getKind() == SqlKind.FILTER) {
            throw unsupported(call, "FILTER (WHERE ...)", "put the condition in WHERE");
        }
        if (call.getKind() == SqlKind.OVER) {
            throw unsupported(call, "OVER windows", "aggregate with GROUP BY");
        }
        if (call.getKind() == SqlKind.WITHIN_GROUP) {
            throw unsupported(call, "WITHIN GROUP", "aggregate with COUNT(*), SUM, MIN or MAX");
        }
        String name = callName(call);
        if (call.getFunctionQuantifier() != null
                && call.getFunctionQuantifier().getValue() == SqlSelectKeyword.DISTINCT) {
            throw unsupported(
                    call,
                    name + "(DISTINCT ...)",
                    "aggregates count every derivation; a DISTINCT argument needs"
                            + " deletes when a duplicate arrives");
        }
        PayloadExpression[] parts = new PayloadExpression[aliases.size()];
        switch (name.toUpperCase(java.util.Locale.ROOT)) {
            case "COUNT" -> {
                SqlNode arg = call.operandCount() == 1 ? call.operand(0) : null;
                if (!(arg instanceof SqlIdentifier id && id.isStar()) && !(arg instanceof SqlNumericLiteral)) {
                    throw unsupported(
                            call,
                            "COUNT(" + (arg == null ? "" : arg) + ")",
                            "COUNT(*) counts the joined rows; COUNT(column) skips NULLs, which flink-ivm's tuples do not"
                                    + " have: write COUNT(*)");
                }
                return new AggregatePlan(
                        SqlTranslation.Aggregate.COUNT,
                        NaturalSemiring.INSTANCE,
                        "COUNT(*)",
                        parts,
                        Payload.Mode.ONE,
                        0,
                        SqlType.BIGINT);
            }
            case "SUM" -> {
                List<SqlNode> factors = new ArrayList<>();
                flatten(call.operand(0), SqlKind.TIMES, factors);
                BigDecimal constant = BigDecimal.ONE;
                for (SqlNode factor : factors) {
                    int alias = singleAlias(
                            factor,
                            "SUM",
                            "a product of factors, each over the columns of one table"
                                    + " (SUM(a.x * b.y)), which the natural-number payloads of the tables multiply to");
                    PayloadExpression e = expression(factor, alias, "SUM");
                    if (e.isApproximate()) {
                        throw unsupported(
                                factor,
                                "SUM over a DOUBLE or FLOAT column",
                                "SUM is maintained over the natural numbers, which need exact values: use DECIMAL or"
                                        + " integer columns, or MIN/MAX");
                    }
                    if (alias < 0) {
                        constant = constant.multiply(e.exact(new Object[0]));
                        if (constant.signum() < 0) {
                            throw unsupported(
                                    factor,
                                    "the negative factor " + factor,
                                    "SUM is maintained over the natural numbers, which need values >= 0");
                        }
                    } else {
                        parts[alias] = parts[alias] == null ? e : new PayloadExpression.Binary('*', parts[alias], e);
                    }
                }
                foldConstant(parts, constant, '*', call);
                int scale = 0;
                boolean integer = true;
                for (PayloadExpression p : parts) {
                    if (p != null) {
                        scale += p.scale();
                        integer &= p.scale() == 0 && integerOnly(p);
                    }
                }
                if (scale > SqlType.MAX_PRECISION) {
                    throw unsupported(
                            call, "SUM with " + scale + " decimal places", "at most " + SqlType.MAX_PRECISION);
                }
                SqlType type = integer ? SqlType.BIGINT : SqlType.decimal(SqlType.MAX_PRECISION, scale);
                return new AggregatePlan(
                        SqlTranslation.Aggregate.SUM,
                        NaturalSemiring.INSTANCE,
                        "SUM(" + plain(call.operand(0)) + ")",
                        parts,
                        Payload.Mode.NATURAL,
                        scale,
                        type);
            }
            case "MIN", "MAX" -> {
                List<SqlNode> terms = new ArrayList<>();
                List<Boolean> negated = new ArrayList<>();
                flattenSum(call.operand(0), false, terms, negated);
                BigDecimal constant = BigDecimal.ZERO;
                boolean approximate = false;
                for (int i = 0; i < terms.size(); i++) {
                    SqlNode term = terms.get(i);
                    int alias = singleAlias(
                            term,
                            name,
                            "a sum of terms, each over the columns of one table"
                                    + " (MIN(a.x + b.y)), which the min-plus/max-plus payloads of the tables add up to");
                    PayloadExpression e = expression(term, alias, name);
                    if (negated.get(i)) {
                        e = new PayloadExpression.Negate(e);
                    }
                    approximate |= e.isApproximate();
                    if (alias < 0) {
                        constant = constant.add(e.exact(new Object[0]));
                    } else {
                        parts[alias] = parts[alias] == null ? e : new PayloadExpression.Binary('+', parts[alias], e);
                    }
                }
                foldConstant(parts, constant, '+', call);
                int scale = 0;
                boolean integer = true;
                for (PayloadExpression p : parts) {
                    if (p != null) {
                        scale = Math.max(scale, p.scale());
                        integer &= integerOnly(p);
                    }
                }
                SqlType type = approximate
                        ? SqlType.DOUBLE
                        : scale == 0 && integer ? SqlType.BIGINT : SqlType.decimal(SqlType.MAX_PRECISION, scale);
                boolean min = name.equalsIgnoreCase("MIN");
                return new AggregatePlan(
                        min ? SqlTranslation.Aggregate.MIN : SqlTranslation.Aggregate.MAX,
                        min ? MinPlusSemiring.INSTANCE : MaxPlusSemiring.INSTANCE,
                        name + "(" + plain(call.operand(0)) + ")",
                        parts,
                        approximate ? Payload.Mode.APPROXIMATE : Payload.Mode.EXACT,
                        approximate ? 0 : scale,
                        type);
            }
            case "AVG" ->
                throw unsupported(
                        call,
                        "AVG",
                        "an average is not a semiring aggregate; maintain SUM and COUNT(*)"
                                + " as two views and divide");
            default -> throw unsupported(call, "the aggregate " + name, "COUNT(*), SUM, MIN and MAX are supported");
        }
    }

    /** Puts a constant factor (SUM) or term (MIN, MAX) into the first alias that has a part, or the first alias. */
    private void foldConstant(PayloadExpression[] parts, BigDecimal constant, char op, SqlNode where) {
        boolean neutral = op == '*' ? constant.compareTo(BigDecimal.ONE) == 0 : constant.signum() == 0;
        if (neutral) {
            return;
        }
        if (op == '*' && constant.signum() == 0) {
            throw unsupported(where, "SUM of a product with the factor 0", "the result is always empty");
        }
        PayloadExpression literal = new PayloadExpression.Literal(constant);
        for (int a = 0; a < parts.length; a++) {
            if (parts[a] != null) {
                parts[a] = new PayloadExpression.Binary(op, parts[a], literal);
                return;
            }
        }
        parts[0] = literal;
    }

    private static boolean integerOnly(PayloadExpression e) {
        return e.isIntegral();
    }

    private static void flatten(SqlNode node, SqlKind kind, List<SqlNode> out) {
        if (node.getKind() == kind) {
            for (SqlNode operand : ((SqlCall) node).getOperandList()) {
                flatten(operand, kind, out);
            }
        } else {
            out.add(node);
        }
    }

    private static void flattenSum(SqlNode node, boolean negate, List<SqlNode> terms, List<Boolean> negated) {
        SqlKind kind = node.getKind();
        if (kind == SqlKind.PLUS || kind == SqlKind.MINUS) {
            SqlCall call = (SqlCall) node;
            flattenSum(call.operand(0), negate, terms, negated);
            flattenSum(call.operand(1), kind == SqlKind.MINUS != negate, terms, negated);
        } else if (kind == SqlKind.MINUS_PREFIX && !(((SqlCall) node).operand(0) instanceof SqlNumericLiteral)) {
            flattenSum(((SqlCall) node).operand(0), !negate, terms, negated);
        } else {
            terms.add(node);
            negated.add(negate);
        }
    }

    /** The one alias whose columns {@code node} uses, -1 for none; refuses a part that mixes tables. */
    private int singleAlias(SqlNode node, String aggregate, String form) {
        Set<Integer> used = new TreeSet<>();
        collectAliases(node, used);
        if (used.size() > 1) {
            List<String> names = new ArrayList<>();
            for (int a : used) {
                names.add(aliases.get(a).name());
            }
            throw unsupported(
                    node,
                    "the part " + node + " of " + aggregate + ", which mixes the tables " + String.join(" and ", names),
                    aggregate + " supports " + form);
        }
        return used.isEmpty() ? -1 : used.iterator().next();
    }

    private void collectAliases(SqlNode node, Set<Integer> out) {
        if (node instanceof SqlIdentifier id) {
            out.add(resolve(id).alias());
        } else if (node instanceof SqlCall call) {
            for (SqlNode operand : call.getOperandList()) {
                if (operand != null) {
                    collectAliases(operand, out);
                }
            }
        }
    }

    /** Per alias: the payload-only columns it uses, by table column index. */
    private final Map<Integer, Set<Integer>> payloadColumns = new HashMap<>();

    private PayloadExpression expression(SqlNode node, int alias, String aggregate) {
        if (node instanceof SqlIdentifier id) {
            ColumnRef r = resolve(id);
            SqlTable.Column c = aliases.get(r.alias()).table().columns().get(r.column());
            if (!c.type().isNumeric()) {
                throw unsupported(
                        id,
                        "the " + c.type() + " column " + id + " in " + aggregate,
                        aggregate + " takes numeric columns");
            }
            payloadColumns.computeIfAbsent(r.alias(), k -> new TreeSet<>()).add(r.column());
            // The input index is fixed later; the column's table index stands in for now.
            return new PayloadExpression.Column(
                    r.column(), aliases.get(r.alias()).name(), c.name(), c.type());
        }
        SqlLiteral literal = literal(node);
        if (literal instanceof SqlNumericLiteral) {
            return new PayloadExpression.Literal(literal.bigDecimalValue());
        }
        if (node instanceof SqlCall call) {
            switch (call.getKind()) {
                case PLUS, MINUS, TIMES -> {
                    char op = call.getKind() == SqlKind.PLUS ? '+' : call.getKind() == SqlKind.MINUS ? '-' : '*';
                    return new PayloadExpression.Binary(
                            op,
                            expression(call.operand(0), alias, aggregate),
                            expression(call.operand(1), alias, aggregate));
                }
                case MINUS_PREFIX -> {
                    return new PayloadExpression.Negate(expression(call.operand(0), alias, aggregate));
                }
                case PLUS_PREFIX -> {
                    return expression(call.operand(0), alias, aggregate);
                }
                case DIVIDE ->
                    throw unsupported(
                            call,
                            "division in " + aggregate,
                            "a payload is built from +, - and * of columns and literals; divide the result downstream");
                default -> {}
            }
        }
        throw unsupported(
                node,
                describe(node) + " in " + aggregate,
                "a payload is built from +, - and * of numeric columns and literals");
    }

    // ---- building the translation ----

    private Map<Integer, String> variableNames() {
        Map<Integer, String> names = new LinkedHashMap<>();
        Set<String> used = new HashSet<>();
        // Each class is named after its first column in FROM order (alias, then column).
        Map<Integer, Integer> first = new java.util.TreeMap<>();
        for (int i = 0; i < refs.size(); i++) {
            int root = find(i);
            Integer known = first.get(root);
            if (known == null || Long.compare(refs.get(i).key(), refs.get(known).key()) < 0) {
                first.put(root, i);
            }
        }
        List<Integer> order = new ArrayList<>(first.values());
        order.sort((x, y) -> Long.compare(refs.get(x).key(), refs.get(y).key()));
        for (int i : order) {
            int root = find(i);
            if (constants.containsKey(root)) {
                continue;
            }
            String column = columnName(i);
            String base = IDENTIFIER.matcher(column).matches() ? column : "V";
            String name = base;
            if (used.contains(name)) {
                String alias = aliases.get(refs.get(i).alias()).name();
                name = IDENTIFIER.matcher(alias).matches() ? base + "_" + alias : base;
            }
            for (int k = 2; used.contains(name); k++) {
                name = base + k;
            }
            used.add(name);
            names.put(root, name);
        }
        return names;
    }

    private SqlTranslation build(List<Item> items, Item aggregateItem, List<String> head, Map<Integer, String> names) {
        AggregatePlan agg = aggregateItem == null
                ? new AggregatePlan(
                        SqlTranslation.Aggregate.NONE,
                        BooleanSemiring.INSTANCE,
                        "no aggregate: " + "distinct rows",
                        new PayloadExpression[aliases.size()],
                        Payload.Mode.ONE,
                        0,
                        null)
                : aggregate(aggregateItem);
        int n = aliases.size();
        // The columns of each alias that are in a class (compared, grouped or selected).
        List<Set<Integer>> classColumns = new ArrayList<>();
        for (int a = 0; a < n; a++) {
            classColumns.add(new TreeSet<>());
        }
        for (ColumnRef r : refs) {
            classColumns.get(r.alias()).add(r.column());
        }
        int payloadAtoms = 0;
        for (PayloadExpression p : agg.parts()) {
            payloadAtoms += p == null ? 0 : 1;
        }
        long bound = EXACT_DOUBLE / Math.max(1, payloadAtoms);
        // Group the aliases of each table into relations: one relation if their payloads are computed alike.
        Map<List<String>, List<Integer>> byTable = new LinkedHashMap<>();
        for (int a = 0; a < n; a++) {
            byTable.computeIfAbsent(aliases.get(a).path(), k -> new ArrayList<>())
                    .add(a);
        }
        Set<String> relationNames = new HashSet<>();
        List<Atom> atoms = new ArrayList<>(java.util.Collections.nCopies(n, (Atom) null));
        List<SqlTranslation.TableInput> inputs = new ArrayList<>();
        Set<String> usedVariables = new HashSet<>(names.values());
        int[] fresh = {0};
        for (Map.Entry<List<String>, List<Integer>> e : byTable.entrySet()) {
            List<Integer> tableAliases = e.getValue();
            SqlTable table = aliases.get(tableAliases.get(0)).table();
            // Input columns: every column of the table that any alias uses, in the table's order.
            Set<Integer> inputSet = new TreeSet<>();
            for (int a : tableAliases) {
                inputSet.addAll(classColumns.get(a));
                inputSet.addAll(payloadColumns.getOrDefault(a, Set.of()));
            }
            int[] input = inputSet.stream().mapToInt(Integer::intValue).toArray();
            Map<Integer, Integer> inputIndex = new HashMap<>();
            for (int i = 0; i < input.length; i++) {
                inputIndex.put(input[i], i);
            }
            Map<String, List<Integer>> bySignature = new LinkedHashMap<>();
            Map<Integer, Payload> payloads = new HashMap<>();
            for (int a : tableAliases) {
                PayloadExpression part = agg.parts()[a] == null ? null : reindex(agg.parts()[a], inputIndex);
                Payload p = part == null ? Payload.one() : new Payload(agg.mode(), part, agg.scale(), bound);
                if (agg.mode() == Payload.Mode.NATURAL && part != null) {
                    p = new Payload(Payload.Mode.NATURAL, part, part.scale(), 0);
                }
                payloads.put(a, p);
                bySignature
                        .computeIfAbsent(p.signature(), k -> new ArrayList<>())
                        .add(a);
            }
            boolean split = bySignature.size() > 1;
            List<SqlTranslation.RelationInput> relations = new ArrayList<>();
            List<List<Integer>> groups = split ? singletons(tableAliases) : List.of(tableAliases);
            String tableName = e.getKey().get(e.getKey().size() - 1);
            for (List<Integer> group : groups) {
                String base = IDENTIFIER.matcher(tableName).matches() ? tableName : "T";
                if (split) {
                    String alias = aliases.get(group.get(0)).name();
                    base = base + "_" + (IDENTIFIER.matcher(alias).matches() ? alias : "a" + group.get(0));
                }
                String relation = base;
                for (int k = 2; !relationNames.add(relation); k++) {
                    relation = base + k;
                }
                Set<Integer> columnSet = new TreeSet<>();
                for (int a : group) {
                    columnSet.addAll(classColumns.get(a));
                }
                int[] columns = columnSet.stream().mapToInt(Integer::intValue).toArray();
                int[] positions = new int[columns.length];
                List<String> aliasNames = new ArrayList<>();
                for (int i = 0; i < columns.length; i++) {
                    positions[i] = inputIndex.get(columns[i]);
                }
                for (int a : group) {
                    aliasNames.add(aliases.get(a).name());
                    List<Term> terms = new ArrayList<>();
                    for (int column : columns) {
                        Integer ref = columnIds.get(((long) a << 32) | column);
                        if (ref == null) {
                            String v;
                            do {
                                v = "_" + fresh[0]++;
                            } while (usedVariables.contains(v));
                            usedVariables.add(v);
                            terms.add(new Variable(v));
                        } else {
                            int root = find(ref);
                            Fixed fixed = constants.get(root);
                            terms.add(
                                    fixed != null
                                            ? new Constant(
                                                    String.valueOf(fixed.value()), fixed.value() instanceof String)
                                            : new Variable(names.get(root)));
                        }
                    }
                    atoms.set(a, new Atom(a, relation, terms));
                }
                relations.add(
                        new SqlTranslation.RelationInput(relation, aliasNames, positions, payloads.get(group.get(0))));
            }
            inputs.add(new SqlTranslation.TableInput(e.getKey(), table, input, relations, oneOf(agg.semiring())));
        }
        ConjunctiveQuery query;
        try {
            query = new ConjunctiveQuery("Q", head, atoms);
        } catch (InvalidQueryException ex) {
            throw new IllegalStateException(
                    "the translation of " + sql + " is not a valid query: " + ex.getMessage(), ex);
        }
        List<SqlTranslation.OutputColumn> columns = new ArrayList<>();
        for (Item item : items) {
            switch (item.kind()) {
                case COLUMN -> {
                    int root = find(item.ref());
                    Fixed fixed = constants.get(root);
                    SqlType type = type(item.ref());
                    columns.add(
                            fixed != null
                                    ? new SqlTranslation.OutputColumn(item.name(), type, -1, fixed.value())
                                    : new SqlTranslation.OutputColumn(
                                            item.name(), type, head.indexOf(names.get(root)), null));
                }
                case LITERAL ->
                    columns.add(new SqlTranslation.OutputColumn(item.name(), item.literalType(), -1, item.literal()));
                case AGGREGATE -> columns.add(new SqlTranslation.OutputColumn(item.name(), agg.type(), -1, null));
            }
        }
        int outputScale = agg.scale();
        if (agg.kind() == SqlTranslation.Aggregate.SUM) {
            outputScale = 0;
            for (Atom atom : atoms) {
                PayloadExpression p = agg.parts()[atom.index()];
                outputScale += p == null ? 0 : p.scale();
            }
        }
        return new SqlTranslation(sql, query, agg.semiring(), agg.kind(), agg.text(), inputs, columns, outputScale);
    }

    private static List<List<Integer>> singletons(List<Integer> values) {
        List<List<Integer>> out = new ArrayList<>();
        for (int v : values) {
            out.add(List.of(v));
        }
        return out;
    }

    private static <T> Object oneOf(Semiring<T> s) {
        return s.one();
    }

    /** Replaces the table column indexes of {@link PayloadExpression.Column}s with input indexes. */
    private static PayloadExpression reindex(PayloadExpression e, Map<Integer, Integer> inputIndex) {
        return e.withInputs(inputIndex);
    }

    // ---- messages ----

    /** An expression as text without Calcite's backticks around plain names. */
    private static String plain(SqlNode node) {
        return node.toString().replaceAll("`([A-Za-z_][A-Za-z0-9_]*)`", "$1");
    }

    private static String callName(SqlNode node) {
        return node instanceof SqlCall c ? c.getOperator().getName() : String.valueOf(node);
    }

    private static String describe(SqlNode node) {
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
        return node.toString();
    }

    private int offset(SqlParserPos pos) {
        int line = 1;
        int i = 0;
        while (line < pos.getLineNum() && i < sql.length()) {
            if (sql.charAt(i++) == '\n') {
                line++;
            }
        }
        return Math.min(sql.length(), i + Math.max(0, pos.getColumnNum() - 1));
    }

    private static String at(SqlParserPos pos) {
        return "at line " + pos.getLineNum() + ", column " + pos.getColumnNum();
    }

    private UnsupportedPlanException unsupported(SqlNode node, String construct, String why) {
        SqlParserPos pos = node == null ? null : node.getParserPosition();
        return new UnsupportedPlanException(construct + (pos == null || pos == SqlParserPos.ZERO ? "" : " " + at(pos))
                + " is not supported: " + why + ". " + SUPPORTED + ".");
    }

    private InvalidQueryException invalid(SqlNode node, String message) {
        SqlParserPos pos = node.getParserPosition();
        return new InvalidQueryException(message + " " + at(pos), offset(pos));
    }
}
