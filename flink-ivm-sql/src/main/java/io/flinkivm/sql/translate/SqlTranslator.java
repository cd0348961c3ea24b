package io.flinkivm.sql.translate;

import io.flinkivm.core.query.InvalidQueryException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.avatica.util.Quoting;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlSelectKeyword;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.validate.SqlConformanceEnum;

/**
 * Translates one SQL query into a {@link SqlTranslation}: parses it with Calcite's parser (Flink SQL's
 * lexical rules: backticks, case-sensitive names), resolves names ({@link Scope}), sorts the
 * conditions into per-table filters and equalities between tables ({@link ColumnClasses}), compiles
 * the aggregates ({@link AggregateCompiler}) and hands the pieces to {@link TranslationBuilder}.
 * Everything outside the subset is refused with the construct, its position and what is supported.
 */
final class SqlTranslator {

    private static final SqlParser.Config PARSER = SqlParser.config()
            .withQuoting(Quoting.BACK_TICK)
            .withUnquotedCasing(Casing.UNCHANGED)
            .withQuotedCasing(Casing.UNCHANGED)
            .withCaseSensitive(true)
            .withConformance(SqlConformanceEnum.LENIENT);

    /** What a SELECT item is. */
    enum ItemKind {
        /** A value of one table's row: a column or an expression (a class of {@link ColumnClasses}). */
        VALUE,
        /** An aggregate call. */
        AGGREGATE,
        /** A constant. */
        LITERAL
    }

    /** A SELECT item with its output name. */
    record Item(ItemKind kind, String name, int value, SqlNode node, RowExpr literal) {}

    private final String sql;
    private final SqlTranslation.TableResolver catalog;
    /** Types the expressions left to Flink; null if none are. */
    private final SqlTranslation.ExpressionTyper flink;

    private final SqlErrors errors;

    SqlTranslator(String sql, SqlTranslation.TableResolver catalog, SqlTranslation.ExpressionTyper flink) {
        this.sql = Objects.requireNonNull(sql, "sql");
        this.catalog = Objects.requireNonNull(catalog, "catalog");
        this.flink = flink;
        this.errors = new SqlErrors(sql);
    }

    SqlTranslation translate() {
        SqlNode node = parse();
        if (!(node instanceof SqlSelect select)) {
            throw errors.unsupported(node, SqlErrors.describe(node), "the query must be a single SELECT");
        }
        checkClauses(select);
        Scope scope = new Scope(catalog, errors);
        scope.from(select.getFrom());
        if (select.getWhere() != null) {
            scope.where(select.getWhere());
        }
        TranslationBuilder builder = new TranslationBuilder(sql, scope, errors, flink);
        for (SqlNode condition : scope.conditions()) {
            builder.condition(condition);
        }
        List<Item> items = selectList(select, scope, builder);
        List<Integer> groupBy = groupBy(select.getGroup(), builder);
        List<SqlNode> aggregates = new ArrayList<>();
        for (Item item : items) {
            if (item.kind() == ItemKind.AGGREGATE) {
                aggregates.add(item.node());
            }
        }
        boolean distinct = select.isDistinct();
        if (distinct && !aggregates.isEmpty()) {
            throw errors.unsupported(
                    select.getModifierNode(SqlSelectKeyword.DISTINCT),
                    "SELECT DISTINCT with an aggregate",
                    "write either SELECT DISTINCT columns or aggregates with GROUP BY");
        }
        List<Integer> head = new ArrayList<>();
        if (!aggregates.isEmpty() || groupBy != null) {
            List<Integer> grouped = groupBy == null ? List.of() : groupBy;
            for (Item item : items) {
                if (item.kind() == ItemKind.VALUE && !builder.inClassOf(item.value(), grouped)) {
                    throw errors.invalid(
                            item.node(),
                            SqlErrors.plain(item.node()) + " is neither grouped nor aggregated; add it to GROUP BY");
                }
            }
            head.addAll(grouped);
        } else {
            for (Item item : items) {
                if (item.kind() == ItemKind.VALUE) {
                    head.add(item.value());
                }
            }
        }
        boolean bag = aggregates.isEmpty() && groupBy == null && !distinct;
        AggregateCompiler.Compiled compiled =
                new AggregateCompiler(scope, errors, builder::compiler, builder::value).compile(aggregates, !bag);
        return builder.build(items, head, compiled, bag);
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
            int offset = pos == null ? -1 : errors.offset(pos);
            if (pos != null && !first.contains("line " + pos.getLineNum())) {
                first += " " + SqlErrors.at(pos);
            }
            throw new InvalidQueryException("invalid SQL: " + first, offset);
        }
    }

    private void checkClauses(SqlSelect select) {
        if (select.isKeywordPresent(SqlSelectKeyword.STREAM)) {
            throw errors.unsupported(select.getModifierNode(SqlSelectKeyword.STREAM), "SELECT STREAM", "drop STREAM");
        }
        if (select.getHaving() != null) {
            throw errors.unsupported(select.getHaving(), "HAVING", "filter the maintained view downstream");
        }
        if (select.getWindowList() != null && !select.getWindowList().isEmpty()) {
            throw errors.unsupported(select.getWindowList(), "WINDOW", "windows are not conjunctive queries");
        }
        if (select.getQualify() != null) {
            throw errors.unsupported(select.getQualify(), "QUALIFY", "filter the maintained view downstream");
        }
        if (select.getOrderList() != null && !select.getOrderList().isEmpty()) {
            throw errors.unsupported(select.getOrderList(), "ORDER BY", "a maintained view has no order");
        }
        if (select.getFetch() != null || select.getOffset() != null) {
            SqlNode n = select.getFetch() != null ? select.getFetch() : select.getOffset();
            throw errors.unsupported(n, "LIMIT/OFFSET/FETCH", "a maintained view has no order; filter it downstream");
        }
        if (select.hasHints()) {
            throw errors.unsupported(select.getHints(), "query hints", "drop the hint");
        }
    }

    private List<Item> selectList(SqlSelect select, Scope scope, TranslationBuilder builder) {
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
            if (node instanceof SqlIdentifier id && id.isStar()) {
                items.addAll(star(id, scope, builder));
                continue;
            }
            String name = alias != null
                    ? alias
                    : node instanceof SqlIdentifier id ? id.names.get(id.names.size() - 1) : "EXPR$" + i;
            if (AggregateCompiler.isAggregate(node)) {
                items.add(new Item(ItemKind.AGGREGATE, name, -1, node, null));
                continue;
            }
            Set<Integer> used = builder.aliasesOf(node);
            if (used.size() > 1) {
                throw errors.unsupported(
                        node,
                        SqlErrors.plain(node) + " in SELECT",
                        "an expression in SELECT is over one table's row; compute expressions over several tables downstream");
            }
            if (used.isEmpty()) {
                items.add(new Item(
                        ItemKind.LITERAL, name, -1, node, builder.compiler(0).compile(node)));
            } else {
                items.add(new Item(
                        ItemKind.VALUE, name, builder.value(used.iterator().next(), node), node, null));
            }
        }
        // Calcite's (and so Flink's) rule for duplicate output names: name, name0, name1, ...
        Set<String> names = new HashSet<>();
        List<Item> out = new ArrayList<>();
        for (Item item : items) {
            String name = item.name();
            for (int k = 0; !names.add(name); k++) {
                name = item.name() + k;
            }
            out.add(new Item(item.kind(), name, item.value(), item.node(), item.literal()));
        }
        return out;
    }

    /** {@code *} or {@code alias.*}: every column of every table (or of one), in FROM order. */
    private List<Item> star(SqlIdentifier id, Scope scope, TranslationBuilder builder) {
        List<Scope.Alias> aliases = scope.aliases();
        if (id.names.size() == 2) {
            Scope.Alias a = scope.byName(id.names.get(0));
            if (a == null) {
                throw errors.invalid(id, "unknown table or alias " + id.names.get(0) + " in " + id);
            }
            aliases = List.of(a);
        } else if (id.names.size() > 2) {
            throw errors.unsupported(id, id.toString(), "write * or alias.*");
        }
        List<Item> out = new ArrayList<>();
        for (Scope.Alias a : aliases) {
            for (SqlTable.Column c : a.table().columns()) {
                SqlIdentifier column = new SqlIdentifier(List.of(a.name(), c.name()), id.getParserPosition());
                out.add(new Item(ItemKind.VALUE, c.name(), builder.value(a.index(), column), column, null));
            }
        }
        return out;
    }

    private List<Integer> groupBy(SqlNodeList group, TranslationBuilder builder) {
        if (group == null) {
            return null;
        }
        List<Integer> out = new ArrayList<>();
        for (SqlNode node : group) {
            Set<Integer> used = builder.aliasesOf(node);
            if (used.size() != 1) {
                throw errors.unsupported(
                        node,
                        SqlErrors.plain(node) + " in GROUP BY",
                        "GROUP BY takes columns and expressions over one table's row");
            }
            int value = builder.value(used.iterator().next(), node);
            if (!out.contains(value)) {
                out.add(value);
            }
        }
        return out;
    }
}
