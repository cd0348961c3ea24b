package io.flinkivm.flink.sql;

import io.flinkivm.flink.ResultRecord;
import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.types.Row;
import org.apache.flink.util.Collector;

/**
 * The view's changelog as table rows: the SELECT list's columns, with the change's {@link org.apache.flink.types.RowKind};
 * end markers are dropped.
 */
final class ResultsToRows<T> implements FlatMapFunction<ResultRecord<T>, Row> {
    private static final long serialVersionUID = 1L;

    private final SqlTranslation translation;

    ResultsToRows(SqlTranslation translation) {
        this.translation = translation;
    }

    @Override
    public void flatMap(ResultRecord<T> r, Collector<Row> out) {
        if (r.isEnd()) {
            return;
        }
        Object[] values = translation.outputRow(r.tuple(), r.payload());
        Row row = new Row(r.kind().rowKind(), values.length);
        for (int i = 0; i < values.length; i++) {
            row.setField(i, values[i]);
        }
        out.collect(row);
    }
}
