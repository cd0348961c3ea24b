package io.flinkivm.sql.translate;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.apache.calcite.sql.SqlNode;

/**
 * The values of table rows that the query joins, groups by or selects (a column, or an expression
 * over one table's row), in classes of values that equalities make equal (union-find). A class is
 * one variable of the conjunctive query, unless an equality with a literal fixes it: then it is no
 * variable, and each of its values becomes a filter on its table instead.
 */
final class ColumnClasses {

    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    /** A value of one alias's row. */
    record Value(int alias, RowExpr expr, SqlNode node) {}

    /** A literal that a class equals, and where that was written. */
    record Fixed(Object value, SqlType type, SqlNode where) {}

    private final SqlErrors errors;
    private final List<Value> values = new ArrayList<>();
    private final Map<String, Integer> ids = new HashMap<>();
    private final List<Integer> parent = new ArrayList<>();
    private final Map<Integer, Fixed> fixed = new HashMap<>();

    ColumnClasses(SqlErrors errors) {
        this.errors = errors;
    }

    /** The id of a value of {@code alias}'s row (the same id for the same expression). */
    int add(int alias, RowExpr expr, SqlNode node) {
        if (expr.type().kind() == SqlType.Kind.UNSUPPORTED) {
            throw errors.unsupported(
                    node,
                    SqlErrors.plain(node) + " of type " + expr.type(),
                    "columns of types TINYINT, SMALLINT, INT, BIGINT, DECIMAL, FLOAT, DOUBLE, CHAR, VARCHAR, STRING,"
                            + " BOOLEAN, DATE, TIME and TIMESTAMP can be joined, grouped and selected");
        }
        String key = alias + "/" + expr.text();
        Integer known = ids.get(key);
        if (known != null) {
            return known;
        }
        int id = values.size();
        values.add(new Value(alias, expr, node));
        parent.add(id);
        ids.put(key, id);
        return id;
    }

    Value value(int id) {
        return values.get(id);
    }

    int size() {
        return values.size();
    }

    int find(int id) {
        int r = id;
        while (parent.get(r) != r) {
            r = parent.get(r);
        }
        return r;
    }

    /** Makes two values equal: an equality between tables. */
    void union(int a, int b, SqlNode where) {
        SqlType ta = values.get(a).expr().type();
        SqlType tb = values.get(b).expr().type();
        if (!ta.joinsWith(tb)) {
            throw errors.unsupported(
                    where,
                    "the equality of " + SqlErrors.plain(values.get(a).node()) + " (" + ta + ") and "
                            + SqlErrors.plain(values.get(b).node()) + " (" + tb + ")",
                    "equalities join values of one type family (integers, decimals, floating point, strings, ...); cast"
                            + " one side");
        }
        int ra = find(a);
        int rb = find(b);
        if (ra == rb) {
            return;
        }
        int root = Math.min(ra, rb);
        int child = Math.max(ra, rb);
        parent.set(child, root);
        Fixed moved = fixed.remove(child);
        if (moved != null) {
            fix(root, moved);
        }
    }

    /** Fixes the class of {@code id} to a literal. */
    void fix(int id, Fixed value) {
        int root = find(id);
        Fixed known = fixed.get(root);
        if (known != null && SqlValues.compare(known.value(), value.value()) != 0) {
            throw errors.unsupported(
                    value.where(),
                    "the equalities with " + SqlValues.literal(known.value()) + " "
                            + SqlErrors.at(known.where().getParserPosition()) + " and "
                            + SqlValues.literal(value.value()),
                    "together they are never true, so the view is always empty");
        }
        fixed.put(root, value);
    }

    /** How the values of the class of {@code id} are held in tuples: by the types of all its values. */
    TupleCodec codec(int id) {
        int root = find(id);
        List<SqlType> types = new ArrayList<>();
        for (int i = 0; i < values.size(); i++) {
            if (find(i) == root) {
                types.add(values.get(i).expr().type());
            }
        }
        return TupleCodec.of(types);
    }

    /** The literal the class of {@code id} equals, or null. */
    Fixed fixed(int id) {
        return fixed.get(find(id));
    }

    /** The ids of the class of {@code id}'s values of {@code alias}, in order of addition. */
    List<Integer> members(int id, int alias) {
        int root = find(id);
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < values.size(); i++) {
            if (values.get(i).alias() == alias && find(i) == root) {
                out.add(i);
            }
        }
        return out;
    }

    /** The aliases whose values are in the class of {@code id}. */
    Set<Integer> aliases(int id) {
        int root = find(id);
        Set<Integer> out = new HashSet<>();
        for (int i = 0; i < values.size(); i++) {
            if (find(i) == root) {
                out.add(values.get(i).alias());
            }
        }
        return out;
    }

    /** Where a value comes in FROM order: by alias, then columns in the table's order, then expressions. */
    private long position(int id) {
        Value v = values.get(id);
        long within = v.expr() instanceof RowExpr.Column c ? c.index() : 1_000_000L + id;
        return ((long) v.alias() << 32) | within;
    }

    /**
     * A variable name per class that is not fixed, by root: the name of its first column in FROM
     * order, made unique with the alias or a number ({@code V}, {@code V2}, ... for expressions).
     */
    Map<Integer, String> variableNames(List<Scope.Alias> aliases) {
        Map<Integer, Integer> first = new TreeMap<>();
        for (int i = 0; i < values.size(); i++) {
            int root = find(i);
            Integer known = first.get(root);
            if (known == null || position(i) < position(known)) {
                first.put(root, i);
            }
        }
        List<Integer> order = new ArrayList<>(first.values());
        order.sort((x, y) -> Long.compare(position(x), position(y)));
        Map<Integer, String> names = new LinkedHashMap<>();
        Set<String> used = new HashSet<>();
        for (int i : order) {
            int root = find(i);
            if (fixed.containsKey(root)) {
                continue;
            }
            RowExpr e = values.get(i).expr();
            String base = e instanceof RowExpr.Column c
                            && !c.isComputed()
                            && IDENTIFIER.matcher(c.name()).matches()
                    ? c.name()
                    : "V";
            String name = base;
            if (used.contains(name) && !base.equals("V")) {
                String alias = aliases.get(values.get(i).alias()).name();
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
}
