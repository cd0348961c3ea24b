package io.flinkivm.sql.translate;

import java.io.Serializable;
import java.util.List;
import org.apache.flink.annotation.Internal;

/**
 * An expression of one table's row that Flink computes: flink-ivm's own evaluator does not take it (a
 * function it does not know, such as {@code DATE_FORMAT}, {@code JSON_VALUE} or a user-defined scalar
 * function), so the table is read through a projection, {@code SELECT ..., <sql> AS <name> FROM table},
 * and flink-ivm sees a plain column of the type Flink gives the expression.
 *
 * @param index its position in a row's values ({@link TableInput#fromValues}), after the table's own columns
 * @param name its name in the projection (no column of the table has it)
 * @param sql the expression as Flink SQL over the table's columns, names quoted
 * @param function what flink-ivm's own evaluator does not take: the name of the expression's function
 * @param type its type, as Flink derives it
 * @param nullable whether Flink says it can be NULL
 * @param arguments the positions of the table's columns it reads
 */
@Internal
public record ComputedColumn(
        int index, String name, String sql, String function, SqlType type, boolean nullable, List<Integer> arguments)
        implements Serializable {
    public ComputedColumn {
        arguments = List.copyOf(arguments);
    }

    /** The column as a {@link SqlTable.Column}, for the type checks of rows. */
    SqlTable.Column asColumn() {
        return new SqlTable.Column(name, type, nullable);
    }
}
