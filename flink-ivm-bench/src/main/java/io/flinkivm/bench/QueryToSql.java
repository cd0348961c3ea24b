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
import java.util.function.BiPredicate;

/**
 * A conjunctive query written as Flink SQL text, the bench's SQL peer (the other way round from
 * flink-ivm-sql's {@code io.flinkivm.sql.translate.SqlTranslation}, which reads SQL into a conjunctive query).
 * The SQL reads one table per relation ({@link RelationTables}: columns {@code c1..ck}, {@code BIGINT} or
 * {@code STRING}, and payload {@code p}), joins them in a chain of inner joins on the shared variables,
 * and sums the payload product grouped by the free variables. Joins follow the first atom, then greedily
 * the atom that shares most variables with those already joined (lowest index on ties), as flink-ivm's
 * fallback plan does, so no join degenerates into a needless cross product. A constant keeps the rows
 * whose value's text equals it (as flink-ivm's selections do): {@code c = 'x'} on a {@code STRING}
 * column, {@code CAST(c AS STRING) = 'x'} on a {@code BIGINT} one.
 */
final class QueryToSql {
    /** The payload column of every relation's table. */
    static final String PAYLOAD = "p";

    private final ConjunctiveQuery query;
    private final BiPredicate<String, Integer> text;

    /** All value columns {@code BIGINT}. */
    QueryToSql(ConjunctiveQuery query) {
        this(query, (relation, j) -> false);
    }

    /** Over {@code tables}: a column is {@code STRING} where its table's is. */
    QueryToSql(RelationTables tables) {
        this(tables.query(), tables::isText);
    }

    /** Column {@code j} (0-based) of {@code relation} is {@code STRING} where {@code text} says so, else {@code BIGINT}. */
    QueryToSql(ConjunctiveQuery query, BiPredicate<String, Integer> text) {
        this.query = query;
        this.text = text;
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
                String column = alias + "." + RelationTables.column(j);
                if (atom.terms().get(j) instanceof Constant c) {
                    String literal = "'" + c.text().replace("'", "''") + "'";
                    where.add((text.test(atom.relation(), j) ? column : "CAST(" + column + " AS STRING)") + " = "
                            + literal);
                    continue;
                }
                String v = ((Variable) atom.terms().get(j)).name();
                String bound = first.putIfAbsent(v, column);
                if (bound != null) {
                    conditions.add(column + " = " + bound);
                }
            }
            product.add(alias + "." + PAYLOAD);
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
