package io.flinkivm.sql.translate;

import io.flinkivm.core.semiring.ProductRing;
import io.flinkivm.core.semiring.ProductSemiring;
import io.flinkivm.core.semiring.Semiring;
import java.util.ArrayList;
import java.util.List;

/** The text of {@link SqlTranslation#explain()}. */
final class SqlExplain {
    private SqlExplain() {}

    /** @param planned the semiring the plan runs over: the translation's, or its ring where tables have deletes */
    static String explain(SqlTranslation t, String aggregateText, Semiring<?> planned) {
        StringBuilder sb = new StringBuilder("SQL translation:\n");
        sb.append("  query:    ").append(t.query()).append('\n');
        Semiring<?> semiring = t.semiring();
        sb.append("  semiring: ")
                .append(semiring.name())
                .append(" (")
                .append(aggregateText)
                .append(")\n");
        if (!planned.equals(semiring)) {
            sb.append("  planned:  ")
                    .append(planned.name())
                    .append(
                            t.isDistinct()
                                    ? " (tables with deletes: a count per row, which leaves with its last derivation)"
                                    : " (tables with deletes: the ring of " + semiring.name() + ")")
                    .append('\n');
        }
        sb.append("  tables:\n");
        for (TableInput table : t.tables()) {
            sb.append("    ")
                    .append(table.name())
                    .append(": columns ")
                    .append(table.inputColumns().isEmpty() ? "none" : String.join(", ", table.inputColumns()))
                    .append('\n');
            if (!table.computedColumns().isEmpty()) {
                for (ComputedColumn c : table.computedColumns()) {
                    sb.append("      ")
                            .append(c.name())
                            .append(" = ")
                            .append(c.sql())
                            .append(' ')
                            .append(c.type())
                            .append(c.nullable() ? "" : " NOT NULL")
                            .append(", computed by Flink (")
                            .append(c.function())
                            .append(")\n");
                }
                sb.append("      read through Flink's projection: ")
                        .append(table.projection())
                        .append('\n');
            }
            for (TableInput.RelationInput r : table.relationInputs()) {
                sb.append("      → ")
                        .append(r.relation())
                        .append(" (")
                        .append(r.aliases().size() == 1 ? "alias " : "aliases ")
                        .append(String.join(", ", r.aliases()))
                        .append(")");
                if (r.filter() != null) {
                    sb.append(", where ").append(r.filter().text());
                }
                sb.append(", payload ").append(payload(r, planned)).append('\n');
            }
        }
        if (!t.keys().isEmpty()) {
            List<String> keys = new ArrayList<>();
            for (SqlTranslation.RelationKey k : t.keys()) {
                keys.add(k.relation() + " by " + String.join(", ", k.columns()));
            }
            sb.append("  keys:     ").append(String.join("; ", keys)).append(" (primary keys of the tables)\n");
        }
        sb.append("  result:   ");
        List<SqlTranslation.OutputColumn> columns = t.columns();
        for (int i = 0; i < columns.size(); i++) {
            SqlTranslation.OutputColumn c = columns.get(i);
            sb.append(i == 0 ? "" : ", ")
                    .append(c.name())
                    .append(' ')
                    .append(c.type())
                    .append(" = ");
            if (c.head() >= 0) {
                sb.append(t.query().head().get(c.head()));
            } else if (c.isAggregate() && c.aggregate().function().equals("COUNT DISTINCT")) {
                int p = t.distinctGroups().position(c.aggregate().terms()[0]);
                String component = AggregateOutput.component(c.aggregate().count());
                sb.append(
                        p < 0
                                ? "1 if " + component + " > 0 (a constant), else 0"
                                : "the number of non-NULL " + t.query().head().get(p) + " with " + component
                                        + " > 0 in the group");
            } else if (c.isAggregate()) {
                sb.append(c.aggregate().describe());
            } else {
                sb.append(SqlValues.literal(c.constant())).append(" (constant)");
            }
        }
        sb.append('\n');
        DistinctGroups d = t.distinctGroups();
        if (d != null) {
            List<String> head = t.query().head();
            List<String> group = head.subList(0, d.groupArity());
            sb.append("  distinct: COUNT(DISTINCT ...) joins ")
                    .append(String.join(", ", head.subList(d.groupArity(), head.size())))
                    .append(" to the head; each result tuple is a pair (")
                    .append(String.join(", ", head))
                    .append("), in the result from its first derivation on (its border crossing), and the rows are")
                    .append(" its groups (")
                    .append(group.isEmpty() ? "one, no grouped value" : String.join(", ", group))
                    .append("), folded from the pairs after the view: O(1) per changed pair")
                    .append(d.needsPairCounts() ? ", with a count of tuples per (group, value)" : "")
                    .append('\n');
        }
        if (t.isBag()) {
            sb.append(
                    "  note:     each result tuple is as many rows as it has derivations (its count), as SQL's bag\n");
        }
        return sb.toString();
    }

    private static String payload(TableInput.RelationInput r, Semiring<?> semiring) {
        if (!(semiring instanceof ProductSemiring || semiring instanceof ProductRing)) {
            return formatOne(semiring) + " (the semiring's one)";
        }
        StringBuilder sb = new StringBuilder("count 1");
        int ones = 0;
        for (int i = 0; i < r.factors().size(); i++) {
            Factor f = r.factors().get(i);
            if (f.isOne()) {
                ones++;
            } else {
                sb.append(", c").append(i + 1).append(" = ").append(f.describe());
            }
        }
        if (ones > 0) {
            sb.append(ones == r.factors().size() ? ", the one in every component" : ", the one in the others");
        }
        return sb.toString();
    }

    private static <T> String formatOne(Semiring<T> s) {
        return s.format(s.one());
    }
}
