package io.flinkivm.sql.translate;

import io.flinkivm.core.query.Atom;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.InvalidQueryException;
import io.flinkivm.core.query.Term;
import io.flinkivm.core.query.Variable;
import io.flinkivm.core.semiring.ProductSemiring;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.core.window.WindowAssignment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;

/**
 * Builds a {@link SqlTranslation} from the resolved pieces: each condition becomes a filter of one
 * table or an equality between tables, each class of equal values a variable, each table reference an
 * atom over the values it keeps, and the table references of one table that filter, keep and pay alike
 * one relation.
 */
final class TranslationBuilder {

    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private final String sql;
    private final Scope scope;
    private final SqlErrors errors;
    private final ColumnClasses classes;
    private final List<RowExprCompiler> compilers = new ArrayList<>();
    private final List<List<RowExpr>> filters = new ArrayList<>();
    /** The columns Flink computes for expressions the compilers do not take (none without a typer). */
    private final ComputedColumns computed;

    TranslationBuilder(String sql, Scope scope, SqlErrors errors, SqlTranslation.ExpressionTyper flink) {
        this.sql = sql;
        this.scope = scope;
        this.errors = errors;
        this.computed = new ComputedColumns(scope, errors, flink);
        this.classes = new ColumnClasses(errors);
        for (Scope.Alias a : scope.aliases()) {
            int alias = a.index();
            compilers.add(new RowExprCompiler(
                    errors,
                    id -> column(alias, id),
                    flink == null ? null : (node, ours) -> computed(alias, node, ours)));
            filters.add(new ArrayList<>());
        }
    }

    /** The compiler of expressions over the row of {@code alias}. */
    RowExprCompiler compiler(int alias) {
        return compilers.get(alias);
    }

    private RowExpr column(int alias, SqlIdentifier id) {
        Scope.ColumnRef ref = scope.resolve(id);
        if (ref.alias() != alias) {
            throw new IllegalStateException(
                    id + " is not a column of " + scope.alias(alias).name());
        }
        SqlTable.Column c = scope.column(ref);
        return new RowExpr.Column(ref.column(), c.name(), c.type(), c.nullable());
    }

    /** The column Flink computes for {@code node} ({@link ComputedColumns#column}), which holds no aggregate. */
    private RowExpr computed(int alias, SqlNode node, RuntimeException ours) {
        rejectAggregates(node);
        return computed.column(alias, node, ours);
    }

    /** The aliases whose columns {@code node} uses; refuses an aggregate inside it. */
    Set<Integer> aliasesOf(SqlNode node) {
        rejectAggregates(node);
        return scope.aliasesOf(node);
    }

    private void rejectAggregates(SqlNode node) {
        if (node instanceof SqlCall call) {
            if (AggregateCompiler.isAggregate(call)) {
                throw errors.unsupported(
                        call,
                        "the aggregate " + SqlErrors.plain(call) + " inside an expression",
                        "SELECT lists aggregates as they are; compute expressions of aggregates downstream");
            }
            for (SqlNode operand : call.getOperandList()) {
                rejectAggregates(operand);
            }
        } else if (node instanceof org.apache.calcite.sql.SqlNodeList list) {
            for (SqlNode item : list) {
                rejectAggregates(item);
            }
        }
    }

    /** The class value of an expression over {@code alias}'s row. */
    int value(int alias, SqlNode node) {
        return classes.add(alias, compilers.get(alias).compile(node), node);
    }

    /** Whether {@code value} is in the class of one of {@code grouped}, or fixed to a literal. */
    boolean inClassOf(int value, List<Integer> grouped) {
        if (classes.fixed(value) != null) {
            return true;
        }
        for (int g : grouped) {
            if (classes.find(g) == classes.find(value)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Sorts a conjunct of WHERE or ON: over one table's row, a filter (and, for an equality with a
     * literal or within the row, also a fact about classes); an equality between two tables' values,
     * a join; anything else across tables is refused.
     */
    void condition(SqlNode condition) {
        Set<Integer> used = aliasesOf(condition);
        if (used.isEmpty()) {
            RowExpr e = compilers.get(0).condition(condition);
            if (!e.isTrue(new Object[0])) {
                throw errors.unsupported(
                        condition,
                        "the condition " + SqlErrors.plain(condition),
                        "it is never true, so the view is always empty");
            }
            return;
        }
        boolean equality = condition.getKind() == SqlKind.EQUALS;
        if (used.size() == 1) {
            int alias = used.iterator().next();
            filters.get(alias).add(compilers.get(alias).condition(condition));
            if (equality) {
                sameRowEquality((SqlCall) condition, alias);
            }
            return;
        }
        SqlCall call = condition instanceof SqlCall c ? c : null;
        if (equality && used.size() == 2) {
            Set<Integer> left = aliasesOf(call.operand(0));
            Set<Integer> right = aliasesOf(call.operand(1));
            if (left.size() == 1 && right.size() == 1) {
                int a = value(left.iterator().next(), call.operand(0));
                int b = value(right.iterator().next(), call.operand(1));
                classes.union(a, b, condition);
                return;
            }
        }
        throw errors.unsupported(
                condition,
                "the condition " + SqlErrors.plain(condition) + " across the tables " + names(used),
                "between tables only equalities join (a condition on one table's row may be anything); a non-equality"
                        + " join has no O(1) update, and it is the only condition refused");
    }

    private void sameRowEquality(SqlCall equality, int alias) {
        SqlNode left = equality.operand(0);
        SqlNode right = equality.operand(1);
        boolean leftConstant = aliasesOf(left).isEmpty();
        boolean rightConstant = aliasesOf(right).isEmpty();
        if (leftConstant == rightConstant) {
            classes.union(value(alias, left), value(alias, right), equality);
            return;
        }
        SqlNode side = leftConstant ? right : left;
        RowExpr constant = compilers.get(alias).compile(leftConstant ? left : right);
        int value = value(alias, side);
        Object fixed = ((RowExpr.Literal) constant).value();
        if (fixed != null) {
            classes.fix(value, new ColumnClasses.Fixed(fixed, constant.type(), equality));
        }
    }

    private String names(Set<Integer> aliases) {
        List<String> out = new ArrayList<>();
        for (int a : aliases) {
            out.add(scope.alias(a).name());
        }
        return String.join(" and ", out);
    }

    // ---- building ----

    /** What one alias contributes: its filter, the values it keeps (by class), its payload. */
    private record Part(RowExpr filter, List<Integer> kept, boolean[] joins, List<Factor> factors, String signature) {}

    SqlTranslation build(
            List<SqlTranslator.Item> items, List<Integer> headValues, AggregateCompiler.Compiled agg, boolean bag) {
        Map<Integer, String> names = classes.variableNames(scope.aliases());
        List<String> head = new ArrayList<>();
        for (int v : headValues) {
            String name = names.get(classes.find(v));
            if (name != null && !head.contains(name)) {
                head.add(name);
            }
        }
        // COUNT(DISTINCT x): each x joins the head after the grouped values.
        int groupArity = head.size();
        for (int v : agg.distinctValues()) {
            String name = names.get(classes.find(v));
            if (name != null && !head.contains(name)) {
                head.add(name);
            }
        }
        DistinctGroups distinct = null;
        if (!agg.distinctValues().isEmpty()) {
            int n = agg.distinctValues().size();
            int[] positions = new int[n];
            int[] components = new int[n];
            int k = 0;
            for (AggregateOutput o : agg.outputs()) {
                if (o.function().equals("COUNT DISTINCT")) {
                    int v = agg.distinctValues().get(o.terms()[0]);
                    positions[o.terms()[0]] = classes.fixed(v) != null ? -1 : head.indexOf(names.get(classes.find(v)));
                    components[o.terms()[0]] = o.count();
                    k++;
                }
            }
            if (k != n) {
                throw new IllegalStateException(n + " distinct values for " + k + " COUNT(DISTINCT ...)");
            }
            distinct = new DistinctGroups(groupArity, head.size(), positions, components);
        }
        int n = scope.aliases().size();
        List<Part> parts = new ArrayList<>();
        for (int a = 0; a < n; a++) {
            parts.add(part(a, agg));
        }
        Map<List<String>, List<Integer>> byTable = new LinkedHashMap<>();
        for (Scope.Alias a : scope.aliases()) {
            byTable.computeIfAbsent(a.path(), k -> new ArrayList<>()).add(a.index());
        }
        ProductSemiring product = agg.semiring() instanceof ProductSemiring p ? p : null;
        Object one = one(agg.semiring());
        Set<String> relationNames = new HashSet<>();
        Set<String> usedVariables = new HashSet<>(names.values());
        int[] fresh = {0};
        List<Atom> atoms = new ArrayList<>(Collections.nCopies(n, (Atom) null));
        List<TableInput> tables = new ArrayList<>();
        List<SqlTranslation.RelationKey> keys = new ArrayList<>();
        for (Map.Entry<List<String>, List<Integer>> e : byTable.entrySet()) {
            SqlTable table = scope.alias(e.getValue().get(0)).table();
            Map<String, List<Integer>> bySignature = new LinkedHashMap<>();
            Set<Integer> inputColumns = new TreeSet<>();
            for (int a : e.getValue()) {
                bySignature
                        .computeIfAbsent(parts.get(a).signature(), k -> new ArrayList<>())
                        .add(a);
                inputColumns.addAll(columnsUsed(a, parts.get(a)));
            }
            boolean split = bySignature.size() > 1;
            String tableName = e.getKey().get(e.getKey().size() - 1);
            List<TableInput.RelationInput> relations = new ArrayList<>();
            for (List<Integer> group : bySignature.values()) {
                String base = IDENTIFIER.matcher(tableName).matches() ? tableName : "T";
                if (split) {
                    String alias = scope.alias(group.get(0)).name();
                    base = base + "_" + (IDENTIFIER.matcher(alias).matches() ? alias : "a" + group.get(0));
                }
                String relation = base;
                for (int k = 2; !relationNames.add(relation); k++) {
                    relation = base + k;
                }
                Part part = parts.get(group.get(0));
                WindowCall window = scope.alias(group.get(0)).window();
                List<RowExpr> layout = new ArrayList<>();
                List<TupleCodec> codecs = new ArrayList<>();
                List<Boolean> joins = new ArrayList<>();
                for (int i = 0; i < part.kept().size(); i++) {
                    int v = part.kept().get(i);
                    if (windowColumn(v) < 0) {
                        layout.add(classes.value(v).expr());
                        codecs.add(classes.codec(v));
                        joins.add(part.joins()[i]);
                    }
                }
                WindowAssignment assignment = null;
                if (window != null) {
                    // The event time goes last; the ingest appends window_start and window_end to it.
                    SqlTable.Column time = table.columns().get(window.timeColumn());
                    layout.add(new RowExpr.Column(window.timeColumn(), time.name(), time.type(), time.nullable()));
                    codecs.add(TupleCodec.of(time.type()));
                    joins.add(false);
                    assignment = window.assignment(relation, layout.size() - 1, time.type());
                }
                List<String> aliasNames = new ArrayList<>();
                for (int a : group) {
                    aliasNames.add(scope.alias(a).name());
                    List<Term> terms = new ArrayList<>();
                    String[] windowVariables = new String[2];
                    for (int v : parts.get(a).kept()) {
                        int w = windowColumn(v);
                        if (w < 0) {
                            terms.add(new Variable(names.get(classes.find(v))));
                        } else {
                            windowVariables[w] = names.get(classes.find(v));
                        }
                    }
                    if (window != null) {
                        terms.add(new Variable(freshVariable(usedVariables, fresh)));
                        for (String w : windowVariables) {
                            terms.add(new Variable(w != null ? w : freshVariable(usedVariables, fresh)));
                        }
                    }
                    atoms.set(a, new Atom(a, relation, terms));
                }
                boolean[] joinFlags = new boolean[joins.size()];
                for (int i = 0; i < joinFlags.length; i++) {
                    joinFlags[i] = joins.get(i);
                }
                boolean[] keyFlags = new boolean[layout.size()];
                SqlTranslation.RelationKey key = key(relation, table, group, layout, keyFlags);
                if (key != null) {
                    keys.add(key);
                }
                relations.add(new TableInput.RelationInput(
                        relation,
                        aliasNames,
                        part.filter(),
                        layout,
                        codecs,
                        joinFlags,
                        keyFlags,
                        part.factors(),
                        product,
                        one,
                        assignment));
            }
            WindowCall window = scope.alias(e.getValue().get(0)).window();
            if (window != null) {
                // The table's own columns: without the window's, with the event time.
                inputColumns.removeIf(window::isWindowColumn);
                inputColumns.add(window.timeColumn());
                table = new SqlTable(
                        table.name(),
                        table.columns().subList(0, window.columns()),
                        table.primaryKey(),
                        table.timeAttribute());
            }
            int[] columns = inputColumns.stream().mapToInt(Integer::intValue).toArray();
            tables.add(new TableInput(e.getKey(), table, computed.of(e.getKey()), columns, relations));
        }
        ConjunctiveQuery query;
        try {
            List<ConjunctiveQuery.Key> relationKeys = new ArrayList<>();
            for (SqlTranslation.RelationKey k : keys) {
                relationKeys.add(new ConjunctiveQuery.Key(k.relation(), k.positions()));
            }
            query = new ConjunctiveQuery("Q", head, atoms).withKeys(relationKeys);
        } catch (InvalidQueryException ex) {
            throw new IllegalStateException(
                    "the translation of " + sql + " is not a valid query: " + ex.getMessage(), ex);
        }
        return new SqlTranslation(
                sql,
                query,
                agg.semiring(),
                agg.text(),
                tables,
                new OutputColumns(classes, filters, errors).of(items, head, names, agg),
                bag,
                keys,
                distinct);
    }

    private static <T> Object one(Semiring<T> s) {
        return s.one();
    }

    /** Alias {@code a}'s filter, kept values (one per class, in FROM order) and payload. */
    private Part part(int a, AggregateCompiler.Compiled agg) {
        Map<Integer, Integer> keptByClass = new TreeMap<>();
        List<RowExpr> conditions = new ArrayList<>(filters.get(a));
        for (int v = 0; v < classes.size(); v++) {
            ColumnClasses.Value value = classes.value(v);
            if (value.alias() != a) {
                continue;
            }
            ColumnClasses.Fixed fixed = classes.fixed(v);
            if (fixed != null) {
                conditions.add(new RowExpr.Compare(
                        RowExpr.Comparison.EQ, value.expr(), new RowExpr.Literal(fixed.value(), fixed.type())));
            } else {
                keptByClass.putIfAbsent(classes.find(v), v);
            }
        }
        List<Integer> kept = new ArrayList<>(keptByClass.values());
        kept.sort((x, y) -> Long.compare(position(x), position(y)));
        boolean[] joins = new boolean[kept.size()];
        for (int i = 0; i < kept.size(); i++) {
            joins[i] = classes.aliases(kept.get(i)).size() > 1;
        }
        RowExpr filter = filter(conditions);
        List<Factor> factors = new ArrayList<>();
        StringBuilder signature = new StringBuilder(filter == null ? "" : filter.text()).append(" | ");
        for (int v : kept) {
            signature.append(classes.value(v).expr().text()).append(',');
        }
        signature.append(" | ").append(Arrays.toString(joins)).append(" | ");
        WindowCall window = scope.alias(a).window();
        if (window != null) {
            signature
                    .append(window.spec())
                    .append(" on ")
                    .append(window.timeColumn())
                    .append(" | ");
            Set<Integer> rowColumns = new TreeSet<>();
            if (filter != null) {
                RowExprs.columns(filter, rowColumns);
            }
            for (Factor[] component : agg.components()) {
                component[a].columns(rowColumns);
            }
            for (int v : kept) {
                if (windowColumn(v) < 0) {
                    RowExprs.columns(classes.value(v).expr(), rowColumns);
                }
            }
            if (rowColumns.stream().anyMatch(window::isWindowColumn)) {
                throw errors.unsupported(
                        null,
                        "window_start or window_end of " + scope.alias(a).name()
                                + " in a condition, an expression or an aggregate",
                        "use them as they are, in GROUP BY, SELECT and join equalities");
            }
        }
        for (Factor[] component : agg.components()) {
            factors.add(component[a]);
            signature.append(component[a].signature()).append(';');
        }
        return new Part(filter, kept, joins, factors, signature.toString());
    }

    private long position(int v) {
        RowExpr e = classes.value(v).expr();
        int w = windowColumn(v);
        return w >= 0 ? Long.MAX_VALUE - 2 + w : e instanceof RowExpr.Column c ? c.index() : 1_000_000L + v;
    }

    /** 0 if value {@code v} is its alias's {@code window_start}, 1 if its {@code window_end}, else -1. */
    private int windowColumn(int v) {
        ColumnClasses.Value value = classes.value(v);
        WindowCall window = scope.alias(value.alias()).window();
        return window != null && value.expr() instanceof RowExpr.Column c && window.isWindowColumn(c.index())
                ? c.index() - window.columns()
                : -1;
    }

    /** A variable name that no value of the query has: {@code _1}, {@code _2}, ... */
    private static String freshVariable(Set<String> used, int[] counter) {
        String name;
        do {
            name = "_" + (++counter[0]);
        } while (!used.add(name));
        return name;
    }

    /** The conjunction of the conditions, each once, or null for none. */
    private static RowExpr filter(List<RowExpr> conditions) {
        Map<String, RowExpr> distinct = new LinkedHashMap<>();
        for (RowExpr c : conditions) {
            distinct.putIfAbsent(c.text(), c);
        }
        if (distinct.isEmpty()) {
            return null;
        }
        return distinct.size() == 1
                ? distinct.values().iterator().next()
                : new RowExpr.Junction(true, new ArrayList<>(distinct.values()));
    }

    /** The table's columns an alias reads: in its filter, kept values and payload. */
    private Set<Integer> columnsUsed(int a, Part part) {
        Set<Integer> out = new TreeSet<>();
        if (part.filter() != null) {
            RowExprs.columns(part.filter(), out);
        }
        for (int v : part.kept()) {
            RowExprs.columns(classes.value(v).expr(), out);
        }
        for (Factor f : part.factors()) {
            f.columns(out);
        }
        return out;
    }

    /**
     * The relation's primary key (positions of its layout), if the table declares one and each key
     * column is kept or fixed to a literal; marks the kept key columns in {@code flags}.
     */
    private SqlTranslation.RelationKey key(
            String relation, SqlTable table, List<Integer> group, List<RowExpr> layout, boolean[] flags) {
        if (table.primaryKey().isEmpty()) {
            return null;
        }
        List<Integer> positions = new ArrayList<>();
        for (String column : table.primaryKey()) {
            int index = table.indexOf(column);
            int position = -1;
            for (int i = 0; i < layout.size(); i++) {
                if (layout.get(i) instanceof RowExpr.Column c && c.index() == index) {
                    position = i;
                }
            }
            if (position >= 0) {
                positions.add(position);
                flags[position] = true;
            } else if (!fixedInAll(group, index)) {
                return null;
            }
        }
        return positions.isEmpty() ? null : new SqlTranslation.RelationKey(relation, positions, table.primaryKey());
    }

    private boolean fixedInAll(List<Integer> aliases, int column) {
        for (int a : aliases) {
            boolean fixed = false;
            for (int v = 0; v < classes.size(); v++) {
                ColumnClasses.Value value = classes.value(v);
                fixed |= value.alias() == a
                        && value.expr() instanceof RowExpr.Column c
                        && c.index() == column
                        && classes.fixed(v) != null;
            }
            if (!fixed) {
                return false;
            }
        }
        return true;
    }
}
