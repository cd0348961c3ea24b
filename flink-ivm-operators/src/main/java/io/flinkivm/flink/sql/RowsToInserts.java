package io.flinkivm.flink.sql;

import io.flinkivm.flink.DeadLetter;
import io.flinkivm.flink.InputRecord;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.types.Row;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * The rows of one table (its input columns, in order) as inserts, one per relation the table feeds.
 * A row that cannot be an insert (a NULL, a negative value under SUM, a row of a changelog other than
 * an insert) goes to the dead-letter output with its reason; nothing is dropped silently.
 */
final class RowsToInserts<T> extends ProcessFunction<Row, InputRecord<T>> {
    private static final long serialVersionUID = 1L;

    private final TableInput table;
    private final Class<T> payloadClass;
    private final OutputTag<DeadLetter> deadLetters;
    private transient long rows;
    private transient String origin;

    RowsToInserts(TableInput table, Class<T> payloadClass, OutputTag<DeadLetter> deadLetters) {
        this.table = table;
        this.payloadClass = payloadClass;
        this.deadLetters = deadLetters;
    }

    @Override
    public void processElement(Row row, Context ctx, Collector<InputRecord<T>> out) {
        rows++;
        if (origin == null) {
            origin = " of table " + table.name() + " (subtask "
                    + getRuntimeContext().getTaskInfo().getIndexOfThisSubtask() + ")";
        }
        if (row.getKind() != RowKind.INSERT) {
            ctx.output(
                    deadLetters,
                    new DeadLetter(
                            "row " + rows + origin,
                            "a " + row.getKind().shortString()
                                    + " row: flink-ivm maintains views over insert-only tables",
                            row.toString()));
            return;
        }
        Object[] values = new Object[row.getArity()];
        for (int i = 0; i < values.length; i++) {
            values[i] = row.getField(i);
        }
        try {
            for (TableInput.Insert insert : table.inserts(table.fromValues(values))) {
                out.collect(InputRecord.insert(
                        insert.relation(),
                        insert.tuple(),
                        payloadClass.cast(insert.payload()),
                        "row " + rows + origin));
            }
        } catch (RejectedRowException e) {
            ctx.output(deadLetters, new DeadLetter("row " + rows + origin, e.getMessage(), row.toString()));
        }
    }
}
