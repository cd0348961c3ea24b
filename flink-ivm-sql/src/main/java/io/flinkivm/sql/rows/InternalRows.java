package io.flinkivm.sql.rows;

import io.flinkivm.sql.translate.RowConverter;
import io.flinkivm.sql.translate.TableInput;
import org.apache.flink.table.data.RowData;
import org.apache.flink.types.Row;

/** Flink's internal rows ({@link RowData}) of a table's input columns as text, for dead letters. */
final class InternalRows {
    private InternalRows() {}

    /**
     * A row as {@link Row#toString()} writes it with its Java values (for a dead letter), e.g. {@code +I[2,
     * 10, open]}; its own text if its values cannot be read.
     */
    static String text(TableInput table, RowData row) {
        try {
            if (row.getArity() != table.inputCount()) {
                return String.valueOf(row);
            }
            Object[] inputs = new Object[row.getArity()];
            for (int i = 0; i < inputs.length; i++) {
                inputs[i] = row.isNullAt(i) ? null : RowConverter.value(row, i, table.inputType(i));
            }
            return Row.ofKind(row.getRowKind(), inputs).toString();
        } catch (RuntimeException e) {
            return String.valueOf(row);
        }
    }
}
