package io.flinkivm.sql.rows;

import io.flinkivm.core.query.ChangeKind;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.flink.common.Metrics;
import io.flinkivm.flink.types.DeadLetter;
import io.flinkivm.flink.types.InputRecord;
import io.flinkivm.sql.translate.RejectedRowException;
import io.flinkivm.sql.translate.RowConverter;
import io.flinkivm.sql.translate.SqlTranslation;
import io.flinkivm.sql.translate.TableInput;
import java.io.Serializable;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.table.data.RowData;
import org.apache.flink.types.Row;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * The rows of one table (its input columns, in order) as changes, one per relation the table feeds: of
 * an insert-only table, Flink's internal rows ({@link RowData}) as inserts; of a table whose changelog
 * has deletes or updates, its rows ({@link Row}) as changes of their kind ({@code -D}, {@code -U} and
 * {@code +U} too), over the plan's ring. A row that passes no filter of the query leaves no change
 * (counted, {@link Metrics#ROWS_FILTERED}), except, for a relation whose key stage rows look up, a mark
 * of it for that stage ({@link InputRecord#dropped}); a row that cannot be a change (a NULL in a primary key, a
 * payload beyond 64 bits, a division by zero, a row of a changelog other than an insert where the plan
 * reads the table as insert-only) goes to the dead-letter output with its reason; nothing is dropped
 * silently. A change that can be rejected downstream (of a relation whose key the plan checks, or with
 * deletes) carries where it came from ({@code row N of table T (subtask i)}); other inserts carry none.
 *
 * @param <R> the row type: {@link RowData} or {@link Row}
 */
@Internal
public final class TableRowsToChanges<R, T> extends ProcessFunction<R, InputRecord<T>> {
    private static final long serialVersionUID = 2L;

    /** How a row of type {@code R} is read. */
    public interface Reader<R> extends Serializable {
        RowKind kind(R row);

        /**
         * Passes the row's inserts to {@code out} (all or nothing): through {@code converter}, compiled for
         * the table, or on the row's values.
         */
        void inserts(TableInput table, RowConverter converter, R row, RowConverter.Inserts out)
                throws RejectedRowException;

        /**
         * The mark of the row for {@code table}'s {@code relation}-th relation, which it made no insert of
         * ({@link TableInput#marks}), or null; {@code converter} converted the row last.
         */
        Tuple mark(TableInput table, RowConverter converter, R row, int relation);

        String text(TableInput table, R row);
    }

    /** Flink's internal rows of an insert-only table. */
    public static final Reader<RowData> INTERNAL = new Reader<>() {
        private static final long serialVersionUID = 1L;

        @Override
        public RowKind kind(RowData row) {
            return row.getRowKind();
        }

        @Override
        public void inserts(TableInput table, RowConverter converter, RowData row, RowConverter.Inserts out)
                throws RejectedRowException {
            converter.convert(row, out);
        }

        @Override
        public Tuple mark(TableInput table, RowConverter converter, RowData row, int relation) {
            return converter.mark(relation);
        }

        @Override
        public String text(TableInput table, RowData row) {
            return InternalRows.text(table, row);
        }
    };

    /** The rows of a table's changelog, as {@code toChangelogStream} gives them. */
    public static final Reader<Row> CHANGELOG = new Reader<>() {
        private static final long serialVersionUID = 1L;

        @Override
        public RowKind kind(Row row) {
            return row.getKind();
        }

        @Override
        public void inserts(TableInput table, RowConverter converter, Row row, RowConverter.Inserts out)
                throws RejectedRowException {
            List<String> relations = table.relations();
            for (TableInput.Insert insert : table.inserts(values(table, row))) {
                out.insert(relations.indexOf(insert.relation()), insert.tuple(), insert.payload());
            }
        }

        @Override
        public Tuple mark(TableInput table, RowConverter converter, Row row, int relation) {
            try {
                List<TableInput.Insert> marks =
                        table.marks(values(table, row), Set.of(table.relations().get(relation)));
                return marks.isEmpty() ? null : marks.get(0).tuple();
            } catch (RejectedRowException e) {
                return null;
            }
        }

        private static Object[] values(TableInput table, Row row) throws RejectedRowException {
            Object[] values = new Object[row.getArity()];
            for (int i = 0; i < values.length; i++) {
                values[i] = row.getField(i);
            }
            return table.fromValues(values);
        }

        @Override
        public String text(TableInput table, Row row) {
            return String.valueOf(row);
        }
    };

    private final TableInput table;
    private final Reader<R> reader;
    private final Semiring<T> semiring;
    private final boolean changes;
    private final OutputTag<DeadLetter> deadLetters;
    private final Set<String> checkedRelations;
    private final Set<String> markedRelations;
    private transient long rows;
    private transient String origin;
    private transient RowConverter converter;
    /** Per relation of the table: its name, and whether its changes carry where they came from. */
    private transient String[] relations;

    private transient boolean[] withOrigin;
    /** Per relation: whether key stages keep marks of it, and whether the current row inserted into it. */
    private transient boolean[] marked;

    private transient boolean[] inserted;
    private transient boolean marking;
    /** The row being converted: its kind, and where its changes go. */
    private transient ChangeKind kind;

    private transient Collector<InputRecord<T>> out;
    private transient RowConverter.Inserts emit;
    /** Changes emitted for the current row. */
    private transient int emitted;

    private transient Counter rowsIn;
    private transient Counter filtered;
    private transient Counter rejected;

    /**
     * @param semiring the plan's semiring (a ring where the table has deletes: its payloads are made from
     *     the translation's)
     * @param changes whether the plan reads the table's relations as changelogs
     * @param checkedRelations the relations whose key the plan checks downstream: their inserts carry an
     *     origin
     * @param markedRelations the relations whose key stage rows look up: a row that makes no insert of one
     *     goes to its stage as a mark ({@link InputRecord#dropped})
     */
    public TableRowsToChanges(
            TableInput table,
            Reader<R> reader,
            Semiring<T> semiring,
            boolean changes,
            OutputTag<DeadLetter> deadLetters,
            Set<String> checkedRelations,
            Set<String> markedRelations) {
        this.table = table;
        this.reader = reader;
        this.semiring = semiring;
        this.changes = changes;
        this.deadLetters = deadLetters;
        this.checkedRelations = Set.copyOf(checkedRelations);
        this.markedRelations = Set.copyOf(markedRelations);
    }

    @Override
    public void open(OpenContext context) {
        MetricGroup metrics = getRuntimeContext().getMetricGroup().addGroup("table", table.name());
        rowsIn = metrics.counter(Metrics.ROWS_IN);
        filtered = metrics.counter(Metrics.ROWS_FILTERED);
        rejected = metrics.counter(Metrics.DEAD_LETTERS);
        origin = " of table " + table.name() + " (subtask "
                + getRuntimeContext().getTaskInfo().getIndexOfThisSubtask() + ")";
        converter = RowConverter.of(table);
        List<String> names = table.relations();
        relations = names.toArray(new String[0]);
        withOrigin = new boolean[relations.length];
        for (int r = 0; r < relations.length; r++) {
            withOrigin[r] = changes || checkedRelations.contains(relations[r]);
        }
        marked = new boolean[relations.length];
        for (int r = 0; r < relations.length; r++) {
            marked[r] = markedRelations.contains(relations[r]);
            marking |= marked[r];
        }
        inserted = new boolean[relations.length];
        emit = this::emit;
    }

    @Override
    public void processElement(R row, Context ctx, Collector<InputRecord<T>> out) {
        rows++;
        rowsIn.inc();
        RowKind kind = reader.kind(row);
        if (kind != RowKind.INSERT && !changes) {
            reject(ctx, "a " + kind.shortString() + " row: flink-ivm reads " + table.name() + " as insert-only", row);
            return;
        }
        this.kind = changeKind(kind);
        this.out = out;
        emitted = 0;
        if (marking) {
            Arrays.fill(inserted, false);
        }
        try {
            reader.inserts(table, converter, row, emit);
            if (emitted == 0) {
                filtered.inc();
            }
            if (marking) {
                for (int r = 0; r < relations.length; r++) {
                    if (marked[r] && !inserted[r]) {
                        Tuple mark = reader.mark(table, converter, row, r);
                        if (mark != null) {
                            out.collect(InputRecord.dropped(
                                    this.kind, relations[r], mark, semiring.one(), "row " + rows + origin));
                        }
                    }
                }
            }
        } catch (RejectedRowException e) {
            reject(ctx, e.getMessage(), row);
        }
    }

    private void emit(int relation, Tuple tuple, Object payload) {
        emitted++;
        inserted[relation] = true;
        out.collect(InputRecord.change(
                kind,
                relations[relation],
                tuple,
                SqlTranslation.payloadIn(semiring, payload),
                withOrigin[relation] ? "row " + rows + origin : null));
    }

    private static ChangeKind changeKind(RowKind kind) {
        return switch (kind) {
            case INSERT -> ChangeKind.INSERT;
            case DELETE -> ChangeKind.DELETE;
            case UPDATE_BEFORE -> ChangeKind.UPDATE_BEFORE;
            case UPDATE_AFTER -> ChangeKind.UPDATE_AFTER;
        };
    }

    private void reject(Context ctx, String reason, R row) {
        rejected.inc();
        ctx.output(deadLetters, new DeadLetter("row " + rows + origin, reason, reader.text(table, row)));
    }
}
