package io.flinkivm.bench;

import io.flinkivm.core.query.Atom;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.Constant;
import io.flinkivm.core.query.Variable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A conjunctive query written as Flink SQL text, the bench's SQL peer (the other way round from
 * flink-ivm-operators' {@code io.flinkivm.sql.translate.SqlTranslation}, which reads SQL into a conjunctive query).
 * The SQL is over one table of inserts {@code ins(rel INT, x1..xw, p BIGINT)}, each
 * value column {@code BIGINT} or, where some relation has text in that position, {@code STRING}:
 * one view per relation (its columns {@code c1..ck} and payload {@code p}), a chain of inner joins on the
 * shared variables, and {@code SUM} of the payload product grouped by the free variables. Joins follow
 * the first atom, then greedily the atom that shares most variables with those already joined (lowest
 * index on ties), as flink-ivm's fallback plan does, so no join degenerates into a needless cross product.
 * A constant keeps the rows whose value's text equals it (as flink-ivm's selections do): {@code c = 'x'}
 * on a {@code STRING} column, {@code CAST(c AS STRING) = 'x'} on a {@code BIGINT} one.
 */
final class QueryToSql {
    static final String INSERTS = "ins";

    private final ConjunctiveQuery query;
    private final List<String> relations;
    private final Map<String, Integer> relationIndex = new HashMap<>();
    private final int width;
    private final boolean[] stringColumns;

    /** All value columns {@code BIGINT}. */
    QueryToSql(ConjunctiveQuery query) {
        this(query, new boolean[0]);
    }

    /** Column {@code x(j+1)} is {@code STRING} where {@code stringColumns[j]} is true, else {@code BIGINT}. */
    QueryToSql(ConjunctiveQuery query, boolean[] stringColumns) {
        this.query = query;
        this.relations = query.relations();
        int w = 0;
        for (int i = 0; i < relations.size(); i++) {
            relationIndex.put(relations.get(i), i);
            w = Math.max(w, query.arityOf(relations.get(i)));
        }
        this.width = w;
        this.stringColumns = java.util.Arrays.copyOf(stringColumns, w);
    }

    /** The translation whose column types fit {@code stream}: STRING where any insert has a non-Long value. */
    static QueryToSql forStream(ConjunctiveQuery query, InsertStream stream) {
        int w = 0;
        for (String r : query.relations()) {
            w = Math.max(w, query.arityOf(r));
        }
        boolean[] text = new boolean[w];
        for (int i = 0; i < stream.size(); i++) {
            io.flinkivm.core.query.Tuple t = stream.tuple(i);
            for (int j = 0; j < t.arity() && j < w; j++) {
                Object v = t.get(j);
                if (!(v instanceof Long)) {
                    if (!(v instanceof String)) {
                        throw new IllegalArgumentException(
                                "the SQL peer takes Long and String values only, got " + v + " in " + t);
                    }
                    text[j] = true;
                }
            }
        }
        return new QueryToSql(query, text);
    }

    /** Whether column {@code x(j+1)} is {@code STRING}. */
    boolean isString(int j) {
        return stringColumns[j];
    }

    /** Number of value columns x1..xw of the inserts table. */
    int width() {
        return width;
    }

    /** The {@code rel} code of a relation. */
    int relationCode(String relation) {
        Integer code = relationIndex.get(relation);
        if (code == null) {
            throw new IllegalArgumentException("relation " + relation + " is not in " + query);
        }
        return code;
    }

    /** The statements that create one view per relation over the inserts table. */
    List<String> viewStatements() {
        List<String> out = new ArrayList<>();
        for (String r : relations) {
            StringBuilder sb =
                    new StringBuilder("CREATE TEMPORARY VIEW ").append(quote(r)).append(" AS SELECT ");
            for (int j = 1; j <= query.arityOf(r); j++) {
                sb.append("x").append(j).append(" AS c").append(j).append(", ");
            }
            sb.append("p FROM ").append(INSERTS).append(" WHERE rel = ").append(relationIndex.get(r));
            out.add(sb.toString());
        }
        return out;
    }

    /** The query: joins in {@link #joinOrder()} and {@code SUM} of the payload product per result tuple. */
    String select() {
        List<Atom> body = query.body();
        Map<String, String> first = new HashMap<>();
        StringBuilder from = new StringBuilder();
        List<String> where = new ArrayList<>();
        List<String> product = new ArrayList<>();
        boolean firstAtom = true;
        for (int a : joinOrder()) {
            Atom atom = body.get(a);
            String alias = "a" + a;
            List<String> conditions = new ArrayList<>();
            for (int j = 0; j < atom.arity(); j++) {
                String column = alias + ".c" + (j + 1);
                if (atom.terms().get(j) instanceof Constant c) {
                    String literal = "'" + c.text().replace("'", "''") + "'";
                    where.add((stringColumns[j] ? column : "CAST(" + column + " AS STRING)") + " = " + literal);
                    continue;
                }
                String v = ((Variable) atom.terms().get(j)).name();
                String bound = first.putIfAbsent(v, column);
                if (bound != null) {
                    conditions.add(column + " = " + bound);
                }
            }
            product.add(alias + ".p");
            if (firstAtom) {
                from.append(quote(atom.relation())).append(" AS ").append(alias);
                where.addAll(conditions);
                firstAtom = false;
            } else {
                from.append("\n  JOIN ")
                        .append(quote(atom.relation()))
                        .append(" AS ")
                        .append(alias)
                        .append(" ON ")
                        .append(conditions.isEmpty() ? "TRUE" : String.join(" AND ", conditions));
            }
        }
        List<String> keys = new ArrayList<>();
        List<String> columns = new ArrayList<>();
        for (String v : query.head()) {
            keys.add(first.get(v));
            columns.add(first.get(v) + " AS " + quote(v));
        }
        columns.add("SUM(" + String.join(" * ", product) + ") AS payload");
        StringBuilder sql = new StringBuilder("SELECT ")
                .append(String.join(", ", columns))
                .append("\nFROM ")
                .append(from);
        if (!where.isEmpty()) {
            sql.append("\nWHERE ").append(String.join(" AND ", where));
        }
        if (!keys.isEmpty()) {
            sql.append("\nGROUP BY ").append(String.join(", ", keys));
        }
        return sql.toString();
    }

    /** Atom 0, then repeatedly the atom sharing most variables with those joined so far. */
    List<Integer> joinOrder() {
        List<Atom> body = query.body();
        List<Integer> order = new ArrayList<>();
        Set<String> bound = new LinkedHashSet<>(body.get(0).variables());
        order.add(0);
        boolean[] used = new boolean[body.size()];
        used[0] = true;
        for (int step = 1; step < body.size(); step++) {
            int best = -1;
            int bestShared = -1;
            for (int a = 0; a < body.size(); a++) {
                if (used[a]) {
                    continue;
                }
                int shared = 0;
                for (String v : new LinkedHashSet<>(body.get(a).variables())) {
                    if (bound.contains(v)) {
                        shared++;
                    }
                }
                if (shared > bestShared) {
                    best = a;
                    bestShared = shared;
                }
            }
            used[best] = true;
            order.add(best);
            bound.addAll(body.get(best).variables());
        }
        return order;
    }

    private static String quote(String identifier) {
        return "`" + identifier.replace("`", "``") + "`";
    }
}
