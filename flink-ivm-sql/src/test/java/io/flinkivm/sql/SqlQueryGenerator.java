package io.flinkivm.sql;

import static org.apache.flink.table.api.DataTypes.BIGINT;
import static org.apache.flink.table.api.DataTypes.DECIMAL;
import static org.apache.flink.table.api.DataTypes.FIELD;
import static org.apache.flink.table.api.DataTypes.INT;
import static org.apache.flink.table.api.DataTypes.ROW;
import static org.apache.flink.table.api.DataTypes.STRING;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.apache.flink.table.types.DataType;
import org.apache.flink.types.Row;
import org.apache.flink.types.RowKind;

/**
 * Random SQL queries over three small tables with NULLs and negative numbers, for differential tests
 * against Flink SQL: filters of every shape on one table, equi-joins, self-joins, cross products,
 * several aggregates side by side (COUNT, COUNT(column), SUM of products of tables, AVG, MIN, MAX),
 * GROUP BY, SELECT DISTINCT and plain SELECT (bag semantics). Each query says which features it uses.
 */
final class SqlQueryGenerator {

    /** What a generated query exercises. */
    enum Feature {
        COUNT,
        COUNT_COLUMN,
        SUM,
        SUM_PRODUCT,
        AVG,
        MIN,
        MAX,
        SEVERAL_AGGREGATES,
        DISTINCT,
        BAG,
        SELF_JOIN,
        CONSTANT,
        CROSS_PRODUCT,
        GLOBAL,
        FILTER_OR,
        FILTER_IN,
        FILTER_BETWEEN,
        FILTER_LIKE,
        FILTER_NULL,
        FILTER_CASE,
        FILTER_WITHIN_ROW,
        P_HIERARCHICAL,
        NOT_P_HIERARCHICAL
    }

    record Generated(String sql, Set<Feature> features) {}

    static final String[] TABLES = {"R", "S", "T"};
    static final String[][] COLUMNS = {{"a", "b", "s"}, {"b", "c", "d"}, {"a", "c", "n"}};
    /** Each column's family: i integer, s string, d decimal. */
    static final char[][] FAMILIES = {{'i', 'i', 's'}, {'i', 'i', 'd'}, {'i', 'i', 'i'}};

    static final DataType[] TYPES = {
        ROW(FIELD("a", BIGINT()), FIELD("b", BIGINT()), FIELD("s", STRING())),
        ROW(FIELD("b", BIGINT()), FIELD("c", BIGINT()), FIELD("d", DECIMAL(10, 2))),
        ROW(FIELD("a", BIGINT()), FIELD("c", INT()), FIELD("n", BIGINT()))
    };

    private static final String[] STRINGS = {"x", "y", "z", "xy"};
    private static final String[] DECIMALS = {"-1.50", "0.50", "1.25", "2.00", "3.10"};

    private final Random random;

    SqlQueryGenerator(Random random) {
        this.random = random;
    }

    /** The rows of table {@code t}: small values, one in twelve NULL. */
    List<Row> rows(int t, int n) {
        List<Row> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(Row.of(values(t)));
        }
        return out;
    }

    private Object[] values(int t) {
        Object[] values = new Object[3];
        for (int c = 0; c < 3; c++) {
            values[c] = random.nextInt(12) == 0 ? null : value(t, c);
        }
        return values;
    }

    /**
     * A changelog of table {@code t} with {@code n} changes: inserts, deletes ({@code -D}) and updates
     * ({@code -U} then {@code +U}) of live rows, in about the proportions 3:1:1. A delete or {@code -U}
     * names one copy of a row that is live at that point (Flink SQL trusts its changelog).
     */
    List<Row> changes(int t, int n) {
        List<Row> out = new ArrayList<>();
        List<Object[]> live = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int op = live.isEmpty() ? 0 : random.nextInt(5);
            if (op <= 2) {
                Object[] values = values(t);
                live.add(values);
                out.add(Row.ofKind(RowKind.INSERT, values));
            } else {
                Object[] gone = live.remove(random.nextInt(live.size()));
                if (op == 3) {
                    out.add(Row.ofKind(RowKind.DELETE, gone));
                } else {
                    Object[] values = values(t);
                    live.add(values);
                    out.add(Row.ofKind(RowKind.UPDATE_BEFORE, gone));
                    out.add(Row.ofKind(RowKind.UPDATE_AFTER, values));
                }
            }
        }
        return out;
    }

    private Object value(int t, int c) {
        return switch (FAMILIES[t][c]) {
            case 's' -> STRINGS[random.nextInt(STRINGS.length)];
            case 'd' -> new BigDecimal(DECIMALS[random.nextInt(DECIMALS.length)]);
            default -> t == 2 && c == 1 ? (Object) random.nextInt(5) : (Object) (long) (random.nextInt(9) - 2);
        };
    }

    Generated generate() {
        EnumSet<Feature> features = EnumSet.noneOf(Feature.class);
        int k = 1 + random.nextInt(3);
        int[] tables = new int[k];
        Set<Integer> seen = new HashSet<>();
        for (int i = 0; i < k; i++) {
            tables[i] = random.nextInt(TABLES.length);
            if (!seen.add(tables[i])) {
                features.add(Feature.SELF_JOIN);
            }
        }
        List<String> where = new ArrayList<>();
        List<String> on = new ArrayList<>();
        for (int i = 1; i < k; i++) {
            if (random.nextInt(8) == 0) {
                on.add(null);
                features.add(Feature.CROSS_PRODUCT);
            } else {
                on.add(equality(i, tables[i], random.nextInt(i), tables));
            }
        }
        for (int i = 0; i < k; i++) {
            if (random.nextInt(3) > 0) {
                where.add(predicate(i, tables[i], features, 2));
            }
        }
        int mode = random.nextInt(8);
        List<String> group = new ArrayList<>();
        int groups = mode >= 6 ? 1 + random.nextInt(2) : random.nextInt(3);
        for (int g = 0; g < groups; g++) {
            int i = random.nextInt(k);
            int c = random.nextInt(3);
            String column = "t" + i + "." + COLUMNS[tables[i]][c];
            if (FAMILIES[tables[i]][c] != 'd' && !group.contains(column)) {
                group.add(column);
            }
        }
        if (group.isEmpty() && mode >= 6) {
            group.add("t0." + COLUMNS[tables[0]][0]);
        }
        StringBuilder sql = new StringBuilder("SELECT ");
        if (mode == 6) {
            sql.append("DISTINCT ").append(String.join(", ", group));
            features.add(Feature.DISTINCT);
        } else if (mode == 7) {
            sql.append(String.join(", ", group));
            features.add(Feature.BAG);
            group.clear();
        } else {
            int count = 1 + random.nextInt(3);
            List<String> aggregates = new ArrayList<>();
            for (int a = 0; a < count; a++) {
                aggregates.add(aggregate(k, tables, features) + " AS agg" + a);
            }
            if (count > 1) {
                features.add(Feature.SEVERAL_AGGREGATES);
            }
            for (String g : group) {
                sql.append(g).append(", ");
            }
            sql.append(String.join(", ", aggregates));
            if (group.isEmpty()) {
                features.add(Feature.GLOBAL);
            }
        }
        boolean explicitJoins = random.nextBoolean();
        sql.append(" FROM ").append(TABLES[tables[0]]).append(" AS t0");
        for (int i = 1; i < k; i++) {
            String condition = on.get(i - 1);
            if (explicitJoins) {
                sql.append(condition == null ? " CROSS JOIN " : " JOIN ")
                        .append(TABLES[tables[i]])
                        .append(" AS t")
                        .append(i);
                if (condition != null) {
                    sql.append(" ON ").append(condition);
                }
            } else {
                sql.append(", ").append(TABLES[tables[i]]).append(" AS t").append(i);
                if (condition != null) {
                    where.add(condition);
                }
            }
        }
        if (!where.isEmpty()) {
            sql.append(" WHERE ").append(String.join(" AND ", where));
        }
        if (mode < 6 && !group.isEmpty()) {
            sql.append(" GROUP BY ").append(String.join(", ", group));
        }
        return new Generated(sql.toString(), features);
    }

    private String equality(int i, int ti, int j, int[] tables) {
        List<String> options = new ArrayList<>();
        for (int a = 0; a < 3; a++) {
            for (int b = 0; b < 3; b++) {
                if (FAMILIES[ti][a] == FAMILIES[tables[j]][b] && FAMILIES[ti][a] != 'd') {
                    options.add("t" + i + "." + COLUMNS[ti][a] + " = t" + j + "." + COLUMNS[tables[j]][b]);
                }
            }
        }
        return options.get(random.nextInt(options.size()));
    }

    /** A condition on the row of alias {@code i}. */
    private String predicate(int i, int table, Set<Feature> features, int depth) {
        int choice = random.nextInt(depth > 0 ? 11 : 8);
        int c = random.nextInt(3);
        String column = "t" + i + "." + COLUMNS[table][c];
        char family = FAMILIES[table][c];
        switch (choice) {
            case 0 -> {
                features.add(Feature.CONSTANT);
                return column + " = " + literal(family);
            }
            case 1 -> {
                String op = new String[] {"<>", "<", "<=", ">", ">="}[random.nextInt(5)];
                return column + " " + op + " " + literal(family);
            }
            case 2 -> {
                features.add(Feature.FILTER_IN);
                return column + (random.nextBoolean() ? " IN (" : " NOT IN (") + literal(family) + ", "
                        + literal(family) + ")";
            }
            case 3 -> {
                features.add(Feature.FILTER_BETWEEN);
                return column + " BETWEEN " + literal(family) + " AND " + literal(family);
            }
            case 4 -> {
                features.add(Feature.FILTER_NULL);
                return column + (random.nextBoolean() ? " IS NULL" : " IS NOT NULL");
            }
            case 5 -> {
                if (table != 0) {
                    return predicate(i, table, features, depth);
                }
                features.add(Feature.FILTER_LIKE);
                return "t" + i + ".s " + (random.nextBoolean() ? "LIKE 'x%'" : "NOT LIKE '_'");
            }
            case 6 -> {
                features.add(Feature.FILTER_WITHIN_ROW);
                String other = "t" + i + "." + COLUMNS[table][(c + 1) % 3];
                if (family == 's' || FAMILIES[table][(c + 1) % 3] == 's') {
                    return column + " IS NOT NULL";
                }
                return random.nextBoolean() ? column + " < " + other : column + " + " + other + " > 1";
            }
            case 7 -> {
                features.add(Feature.FILTER_CASE);
                return "CASE WHEN " + column + " IS NULL THEN " + random.nextBoolean() + " ELSE " + column + " <> "
                        + literal(family) + " END";
            }
            case 8 -> {
                features.add(Feature.FILTER_OR);
                return "(" + predicate(i, table, features, depth - 1) + " OR "
                        + predicate(i, table, features, depth - 1) + ")";
            }
            case 9 -> {
                return "NOT (" + predicate(i, table, features, depth - 1) + ")";
            }
            default -> {
                return "(" + predicate(i, table, features, depth - 1) + " AND "
                        + predicate(i, table, features, depth - 1) + ")";
            }
        }
    }

    private String literal(char family) {
        return switch (family) {
            case 's' -> "'" + STRINGS[random.nextInt(STRINGS.length)] + "'";
            case 'd' -> DECIMALS[random.nextInt(DECIMALS.length)];
            default -> String.valueOf(random.nextInt(9) - 2);
        };
    }

    private String aggregate(int k, int[] tables, Set<Feature> features) {
        int i = random.nextInt(k);
        int j = random.nextInt(k);
        switch (random.nextInt(7)) {
            case 0 -> {
                features.add(Feature.COUNT);
                return "COUNT(*)";
            }
            case 1 -> {
                features.add(Feature.COUNT_COLUMN);
                return "COUNT(t" + i + "." + COLUMNS[tables[i]][random.nextInt(3)] + ")";
            }
            case 2 -> {
                features.add(i == j ? Feature.SUM : Feature.SUM_PRODUCT);
                String product = numeric(i, tables[i]) + " * " + numeric(j, tables[j]);
                return "SUM(" + (random.nextBoolean() ? product : numeric(i, tables[i]) + " - " + product) + ")";
            }
            case 3 -> {
                features.add(Feature.SUM);
                return "SUM(" + numeric(i, tables[i]) + ")";
            }
            case 4 -> {
                features.add(Feature.AVG);
                return "AVG(" + numeric(i, tables[i]) + ")";
            }
            default -> {
                boolean min = random.nextBoolean();
                features.add(min ? Feature.MIN : Feature.MAX);
                String arg = numeric(i, tables[i]) + (random.nextBoolean() ? " + " : " - ") + numeric(j, tables[j]);
                return (min ? "MIN(" : "MAX(") + (random.nextBoolean() ? arg : numeric(i, tables[i])) + ")";
            }
        }
    }

    private String numeric(int i, int table) {
        List<String> options = new ArrayList<>();
        for (int c = 0; c < 3; c++) {
            if (FAMILIES[table][c] != 's') {
                options.add("t" + i + "." + COLUMNS[table][c]);
            }
        }
        return options.get(random.nextInt(options.size()));
    }
}
