package io.flinkivm.sql.rows;

import io.flinkivm.flink.types.DeadLetter;
import io.flinkivm.flink.types.ResultRecord;
import io.flinkivm.sql.translate.RejectedRowException;
import java.io.Serializable;
import org.apache.flink.annotation.Internal;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.types.Row;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * A view's result records as table rows, the one path from a flink-ivm job's results to a Flink table
 * (a SQL view's, and {@code IvmTables.changelog}'s): end markers are dropped, every other record becomes
 * the rows its {@link Layout} says, and a record whose values do not fit the table's columns goes to
 * the dead-letter output with the reason.
 */
@Internal
public final class ResultsToRows<T> extends ProcessFunction<ResultRecord<T>, Row> {
    private static final long serialVersionUID = 3L;

    /** How result records become rows of one table. */
    public interface Layout<T> extends Serializable {
        /** The rows that {@code r} stands for: |result| rows of {@link #kind}; 0 for none, negative for deletes. */
        long rows(ResultRecord<? extends T> r);

        /** The kind of the {@code rows} rows that {@code r} stands for. */
        ResultRecord.Kind kind(ResultRecord<? extends T> r, long rows);

        /**
         * The values of {@code r}'s row, one per column.
         *
         * @throws RejectedRowException if a value does not fit its column
         */
        Object[] values(ResultRecord<? extends T> r) throws RejectedRowException;
    }

    private final Layout<? super T> layout;
    private final OutputTag<DeadLetter> rejected;

    public ResultsToRows(Layout<? super T> layout, OutputTag<DeadLetter> rejected) {
        this.layout = layout;
        this.rejected = rejected;
    }

    @Override
    public void processElement(ResultRecord<T> r, Context ctx, Collector<Row> out) {
        if (r.isEnd()) {
            return;
        }
        long rows = layout.rows(r);
        if (rows == 0) {
            return;
        }
        Object[] values;
        try {
            values = layout.values(r);
        } catch (RejectedRowException e) {
            ctx.output(rejected, new DeadLetter("trigger " + r.snapshotId(), e.getMessage(), r.toString()));
            return;
        }
        Row row = new Row(layout.kind(r, rows).rowKind(), values.length);
        for (int i = 0; i < values.length; i++) {
            row.setField(i, values[i]);
        }
        for (long i = 0; i < Math.abs(rows); i++) {
            out.collect(row);
        }
    }
}
