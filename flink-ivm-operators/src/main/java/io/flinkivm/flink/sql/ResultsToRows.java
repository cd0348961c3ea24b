package io.flinkivm.flink.sql;

import io.flinkivm.flink.types.ResultRecord;
import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.types.Row;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.Collector;

/**
 * The view's changelog as table rows: the SELECT list's columns, with the change's {@link RowKind};
 * end markers are dropped. For a bag (a plain SELECT) each change of a result tuple's count becomes as
 * many {@code +I} rows as the count grew by, or {@code -D} rows as it fell by (the changelog carries
 * {@code -U} before {@code +U}): over insert-only tables the count only grows and the table is
 * insert-only, as Flink SQL's inner join of insert-only tables is. For distinct rows a change of the
 * hidden count alone ({@code -U}/{@code +U}) is no row: the row is still there.
 */
public final class ResultsToRows<T> implements FlatMapFunction<ResultRecord<T>, Row> {
    private static final long serialVersionUID = 1L;

    private final SqlTranslation translation;
    /** For a bag: the count of the last {@code -U}, which its {@code +U} follows. */
    private transient long before;

    public ResultsToRows(SqlTranslation translation) {
        this.translation = translation;
    }

    @Override
    public void flatMap(ResultRecord<T> r, Collector<Row> out) {
        if (r.isEnd()) {
            return;
        }
        if (translation.isDistinct() && r.kind().isUpdate()) {
            return;
        }
        if (!translation.isBag()) {
            out.collect(row(r, r.kind().rowKind()));
            return;
        }
        long count = translation.copies(r.payload());
        switch (r.kind()) {
            case UPDATE_BEFORE -> before = count;
            case UPDATE_AFTER -> emit(r, count - before, out);
            case SNAPSHOT, INSERT -> emit(r, count, out);
            case DELETE -> emit(r, -count, out);
        }
    }

    /** {@code copies} rows of {@code r}: inserts, or deletes where {@code copies} is negative. */
    private void emit(ResultRecord<T> r, long copies, Collector<Row> out) {
        Row row = row(r, copies > 0 ? RowKind.INSERT : RowKind.DELETE);
        for (long i = 0; i < Math.abs(copies); i++) {
            out.collect(row);
        }
    }

    private Row row(ResultRecord<T> r, RowKind kind) {
        Object[] values = translation.outputRow(r.tuple(), r.payload());
        Row row = new Row(kind, values.length);
        for (int i = 0; i < values.length; i++) {
            row.setField(i, values[i]);
        }
        return row;
    }
}
