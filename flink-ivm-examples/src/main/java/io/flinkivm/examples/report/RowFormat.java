package io.flinkivm.examples.report;

import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.sql.translate.SqlTranslation;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/** How a result tuple and its payload become the fields of a CSV row. */
@FunctionalInterface
public interface RowFormat<T> extends Serializable {

    List<String> fields(Tuple tuple, T payload);

    /** The tuple's values, then the payload in the semiring's text form (the columns of {@code run}'s output). */
    static <T> RowFormat<T> of(Semiring<T> semiring) {
        return (tuple, payload) -> fields(tuple, semiring.format(payload));
    }

    /** The SELECT list's values of a query given in SQL (the columns of {@code run --sql}'s output). */
    static <T> RowFormat<T> of(SqlTranslation sql) {
        return sql::outputTexts;
    }

    /** The tuple's values, then {@code payload}. */
    static List<String> fields(Tuple tuple, String payload) {
        List<String> out = new ArrayList<>(tuple.arity() + 1);
        for (int i = 0; i < tuple.arity(); i++) {
            out.add(String.valueOf(tuple.get(i)));
        }
        out.add(payload);
        return out;
    }
}
