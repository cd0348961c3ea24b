package io.flinkivm.sql.rows;

import io.flinkivm.sql.translate.RejectedRowException;
import io.flinkivm.sql.translate.SqlType;
import io.flinkivm.sql.translate.TableInput;
import java.time.LocalDate;
import java.time.LocalTime;
import org.apache.flink.table.data.RowData;
import org.apache.flink.types.Row;

/**
 * Flink's internal rows ({@link RowData}, as a table's changelog gives them to {@code toDataStream}) of a
 * table's input columns, read as {@link TableInput#fromValues} reads the rows' Java values, without
 * making them.
 */
final class InternalRows {
    private InternalRows() {}

    /** The row's values, one per column of the table (null where the column is not read or NULL). */
    static Object[] values(TableInput table, RowData row) throws RejectedRowException {
        int n = table.inputCount();
        if (row.getArity() != n) {
            throw new RejectedRowException(
                    "expected " + n + " values (" + table.inputColumns() + "), got " + row.getArity());
        }
        Object[] out = new Object[table.width()];
        for (int i = 0; i < n; i++) {
            if (!row.isNullAt(i)) {
                out[table.inputColumn(i)] = value(row, i, table.inputType(i));
            }
        }
        return out;
    }

    /**
     * A row as {@link Row#toString()} writes it with its Java values (for a dead letter), e.g. {@code +I[2,
     * 10, open]}; its own text if its values cannot be read.
     */
    static String text(TableInput table, RowData row) {
        try {
            Object[] values = values(table, row);
            Object[] inputs = new Object[row.getArity()];
            for (int i = 0; i < inputs.length; i++) {
                inputs[i] = values[table.inputColumn(i)];
            }
            return Row.ofKind(row.getRowKind(), inputs).toString();
        } catch (RejectedRowException | RuntimeException e) {
            return String.valueOf(row);
        }
    }

    /** The value at {@code i} of a row whose column there has {@code type}, as {@link TableInput#fromValues} has it. */
    private static Object value(RowData row, int i, SqlType type) {
        return switch (type.kind()) {
            case TINYINT -> (long) row.getByte(i);
            case SMALLINT -> (long) row.getShort(i);
            case INT -> (long) row.getInt(i);
            case BIGINT -> row.getLong(i);
            case DECIMAL -> row.getDecimal(i, type.precision(), type.scale()).toBigDecimal();
            case FLOAT -> (double) row.getFloat(i);
            case DOUBLE -> row.getDouble(i);
            case STRING -> row.getString(i).toString();
            case BOOLEAN -> row.getBoolean(i);
            case DATE -> LocalDate.ofEpochDay(row.getInt(i));
            case TIME -> LocalTime.ofNanoOfDay(row.getInt(i) * 1_000_000L); // Flink keeps milliseconds of the day
            case TIMESTAMP -> row.getTimestamp(i, type.precision()).toLocalDateTime();
            case UNSUPPORTED -> throw new IllegalArgumentException("values of type " + type + " are not supported");
        };
    }
}
