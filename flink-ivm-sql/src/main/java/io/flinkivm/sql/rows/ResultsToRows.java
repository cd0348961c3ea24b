package io.flinkivm.sql.rows;

import io.flinkivm.flink.types.ResultRecord;
import io.flinkivm.sql.translate.SqlTranslation;
import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.types.Row;
import org.apache.flink.util.Collector;

/**
 * The view's changelog as table rows: the SELECT list's columns, each record as the rows
 * {@link SqlRowChanges} says it stands for (a bag's count changes as {@code +I} or {@code -D} rows,
 * none for a distinct row's {@code -U}/{@code +U}); end markers are dropped. Over insert-only tables a
 * bag's count only grows, and its table is insert-only, as Flink SQL's inner join of insert-only
 * tables is.
 */
public final class ResultsToRows<T> implements FlatMapFunction<ResultRecord<T>, Row> {
    private static final long serialVersionUID = 2L;

    private final SqlTranslation translation;
    private final SqlRowChanges changes;

    public ResultsToRows(SqlTranslation translation) {
        this.translation = translation;
        this.changes = new SqlRowChanges(translation);
    }

    @Override
    public void flatMap(ResultRecord<T> r, Collector<Row> out) {
        if (r.isEnd()) {
            return;
        }
        long rows = changes.rows(r);
        if (rows == 0) {
            return;
        }
        Object[] values = translation.outputRow(r.tuple(), r.payload());
        Row row = new Row(changes.kind(r, rows).rowKind(), values.length);
        for (int i = 0; i < values.length; i++) {
            row.setField(i, values[i]);
        }
        for (long i = 0; i < Math.abs(rows); i++) {
            out.collect(row);
        }
    }
}
