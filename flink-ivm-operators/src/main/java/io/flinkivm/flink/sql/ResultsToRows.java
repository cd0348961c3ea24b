package io.flinkivm.flink.sql;

import io.flinkivm.flink.ResultRecord;
import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.types.Row;
import org.apache.flink.util.Collector;

/** The rows of snapshots as table rows: the snapshot id, then the SELECT list's columns; end markers are dropped. */
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
        Row row = new Row(values.length + 1);
        row.setField(0, r.snapshotId());
        for (int i = 0; i < values.length; i++) {
            row.setField(i + 1, values[i]);
        }
        out.collect(row);
    }
}
