package io.flinkivm.sql.rows;

import io.flinkivm.flink.types.ResultRecord;
import io.flinkivm.sql.translate.SqlTranslation;
import org.apache.flink.annotation.Internal;

/**
 * How the records of a SQL view's changelog become rows of its SELECT list, for the view's table
 * (a {@link ResultsToRows.Layout}) and for files written from a Flink job's records: a record is one row
 * of its own kind, except
 *
 * <ul>
 *   <li>for a bag (a plain SELECT): as many rows as the result tuple's count changed by, of the
 *       record's kind where it grew (a {@code +U}'s as {@code +I}), {@code -D} where it fell; a
 *       {@code -U} is no row, it gives the count that its {@code +U} follows;
 *   <li>for distinct rows: a {@code -U} or {@code +U} is no row (only the hidden count changed).
 * </ul>
 *
 * One per stream of records: it holds the count between a {@code -U} and its {@code +U}.
 */
@Internal
public final class SqlRowChanges implements ResultsToRows.Layout<Object> {
    private static final long serialVersionUID = 1L;

    private final SqlTranslation translation;
    /** For a bag: the count of the last {@code -U}. */
    private long before;

    public SqlRowChanges(SqlTranslation translation) {
        this.translation = translation;
    }

    /** The rows that {@code r} stands for: |result| rows of {@link #kind}; 0 for none, negative for deletes. */
    @Override
    public long rows(ResultRecord<?> r) {
        if (translation.isDistinct() && r.kind().isUpdate()) {
            return 0;
        }
        if (!translation.isBag()) {
            return 1;
        }
        long count = translation.copies(r.payload());
        return switch (r.kind()) {
            case UPDATE_BEFORE -> {
                before = count;
                yield 0;
            }
            case UPDATE_AFTER -> count - before;
            case SNAPSHOT, INSERT -> count;
            case DELETE -> -count;
        };
    }

    /** The kind of the {@code rows} rows ({@link #rows}) that {@code r} stands for. */
    @Override
    public ResultRecord.Kind kind(ResultRecord<?> r, long rows) {
        if (rows < 0) {
            return ResultRecord.Kind.DELETE;
        }
        return translation.isBag() && r.kind() == ResultRecord.Kind.UPDATE_AFTER ? ResultRecord.Kind.INSERT : r.kind();
    }

    /** The values of the SELECT list of {@code r}'s row. */
    @Override
    public Object[] values(ResultRecord<?> r) {
        return translation.outputRow(r.tuple(), r.payload());
    }
}
