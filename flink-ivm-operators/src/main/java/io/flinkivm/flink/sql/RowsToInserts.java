package io.flinkivm.flink.sql;

import io.flinkivm.flink.DeadLetter;
import io.flinkivm.flink.InputRecord;
import io.flinkivm.flink.runtime.Metrics;
import java.util.List;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.types.Row;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * The rows of one table (its input columns, in order) as inserts, one per relation the table feeds.
 * A row that passes no filter of the query leaves no insert (counted, {@link Metrics#ROWS_FILTERED}); a
 * row that cannot be an insert (a NULL in a primary key, a payload beyond 64 bits, a division by zero,
 * a row of a changelog other than an insert) goes to the dead-letter output with its reason; nothing is
 * dropped silently.
 */
final class RowsToInserts<T> extends ProcessFunction<Row, InputRecord<T>> {
    private static final long serialVersionUID = 1L;

    private final TableInput table;
    private final Class<T> payloadClass;
    private final OutputTag<DeadLetter> deadLetters;
    private transient long rows;
    private transient String origin;
    private transient Counter rowsIn;
    private transient Counter filtered;
    private transient Counter rejected;

    RowsToInserts(TableInput table, Class<T> payloadClass, OutputTag<DeadLetter> deadLetters) {
        this.table = table;
        this.payloadClass = payloadClass;
        this.deadLetters = deadLetters;
    }

    @Override
    public void open(OpenContext context) {
        MetricGroup metrics = getRuntimeContext().getMetricGroup().addGroup("table", table.name());
        rowsIn = metrics.counter(Metrics.ROWS_IN);
        filtered = metrics.counter(Metrics.ROWS_FILTERED);
        rejected = metrics.counter(Metrics.DEAD_LETTERS);
    }

    @Override
    public void processElement(Row row, Context ctx, Collector<InputRecord<T>> out) {
        rows++;
        rowsIn.inc();
        if (origin == null) {
            origin = " of table " + table.name() + " (subtask "
                    + getRuntimeContext().getTaskInfo().getIndexOfThisSubtask() + ")";
        }
        if (row.getKind() != RowKind.INSERT) {
            rejected.inc();
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
            List<TableInput.Insert> inserts = table.inserts(table.fromValues(values));
            if (inserts.isEmpty()) {
                filtered.inc();
            }
            for (TableInput.Insert insert : inserts) {
                out.collect(InputRecord.insert(
                        insert.relation(),
                        insert.tuple(),
                        payloadClass.cast(insert.payload()),
                        "row " + rows + origin));
            }
        } catch (RejectedRowException e) {
            rejected.inc();
            ctx.output(deadLetters, new DeadLetter("row " + rows + origin, e.getMessage(), row.toString()));
        }
    }
}
