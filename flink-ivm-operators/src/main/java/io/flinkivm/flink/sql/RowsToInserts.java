package io.flinkivm.flink.sql;

import io.flinkivm.flink.runtime.Metrics;
import io.flinkivm.flink.types.DeadLetter;
import io.flinkivm.flink.types.InputRecord;
import java.util.List;
import java.util.Set;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.table.data.RowData;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * The rows of one table (its input columns, in order, in Flink's internal format) as inserts, one per
 * relation the table feeds. A row that passes no filter of the query leaves no insert (counted,
 * {@link Metrics#ROWS_FILTERED}); a row that cannot be an insert (a NULL in a primary key, a payload
 * beyond 64 bits, a division by zero, a row of a changelog other than an insert) goes to the dead-letter
 * output with its reason; nothing is dropped silently. An insert into a relation whose key the plan checks
 * downstream carries where it came from ({@code row N of table T (subtask i)}), for the dead letter of a
 * row that breaks the key; other inserts cannot be rejected downstream and carry none.
 */
public final class RowsToInserts<T> extends ProcessFunction<RowData, InputRecord<T>> {
    private static final long serialVersionUID = 1L;

    private final TableInput table;
    private final Class<T> payloadClass;
    private final OutputTag<DeadLetter> deadLetters;
    private final Set<String> checkedRelations;
    private transient long rows;
    private transient String origin;
    private transient Counter rowsIn;
    private transient Counter filtered;
    private transient Counter rejected;

    /**
     * @param checkedRelations the relations whose key the plan checks downstream: their inserts carry an
     *     origin
     */
    public RowsToInserts(
            TableInput table, Class<T> payloadClass, OutputTag<DeadLetter> deadLetters, Set<String> checkedRelations) {
        this.table = table;
        this.payloadClass = payloadClass;
        this.deadLetters = deadLetters;
        this.checkedRelations = Set.copyOf(checkedRelations);
    }

    @Override
    public void open(OpenContext context) {
        MetricGroup metrics = getRuntimeContext().getMetricGroup().addGroup("table", table.name());
        rowsIn = metrics.counter(Metrics.ROWS_IN);
        filtered = metrics.counter(Metrics.ROWS_FILTERED);
        rejected = metrics.counter(Metrics.DEAD_LETTERS);
        origin = " of table " + table.name() + " (subtask "
                + getRuntimeContext().getTaskInfo().getIndexOfThisSubtask() + ")";
    }

    @Override
    public void processElement(RowData row, Context ctx, Collector<InputRecord<T>> out) {
        rows++;
        rowsIn.inc();
        if (row.getRowKind() != RowKind.INSERT) {
            reject(
                    ctx,
                    "a " + row.getRowKind().shortString() + " row: flink-ivm maintains views over insert-only tables",
                    row);
            return;
        }
        try {
            List<TableInput.Insert> inserts = table.inserts(table.fromRowData(row));
            if (inserts.isEmpty()) {
                filtered.inc();
            }
            for (TableInput.Insert insert : inserts) {
                out.collect(InputRecord.insert(
                        insert.relation(),
                        insert.tuple(),
                        payloadClass.cast(insert.payload()),
                        checkedRelations.contains(insert.relation()) ? "row " + rows + origin : null));
            }
        } catch (RejectedRowException e) {
            reject(ctx, e.getMessage(), row);
        }
    }

    private void reject(Context ctx, String reason, RowData row) {
        rejected.inc();
        ctx.output(deadLetters, new DeadLetter("row " + rows + origin, reason, table.text(row)));
    }
}
