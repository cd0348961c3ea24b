package io.flinkivm.sql;

import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.flink.IvmJob;
import io.flinkivm.flink.IvmOptions;
import io.flinkivm.flink.OutputMode;
import io.flinkivm.flink.types.DeadLetter;
import io.flinkivm.flink.types.DeadLetterTypeInfo;
import io.flinkivm.flink.types.ResultRecord;
import io.flinkivm.sql.rows.ResultsToRows;
import io.flinkivm.sql.translate.RejectedRowException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.Table;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.runtime.typeutils.ExternalTypeInfo;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.types.Row;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.OutputTag;

/**
 * A flink-ivm view as a Flink {@link Table}: the changelog of a job built with
 * {@link OutputMode#CHANGELOG}, one row per changed result tuple and trigger, with Flink's
 * {@link RowKind}: the free variables (named as in the query's head, typed as the caller says), then
 * the payload column {@value #PAYLOAD}. The head is the table's primary key and the changelog is an
 * upsert stream ({@code +I}, {@code +U}; {@code -D} only where a plan can delete), so the view can be
 * written to any Flink table sink that takes updates (e.g. {@code upsert-kafka}, JDBC) or queried with
 * Flink SQL.
 *
 * <pre>{@code
 * IvmJob<Long> job = FlinkIvm.maintain(inserts, "Q(A,C) :- ...", NaturalSemiring.INSTANCE,
 *         IvmOptions.defaults().withOutputMode(OutputMode.CHANGELOG).withSnapshotEvery(10_000));
 * IvmTables.ChangelogTable view = IvmTables.changelog(tEnv, job, DataTypes.BIGINT(), DataTypes.STRING());
 * tEnv.createTemporaryView("q", view.table());
 * }</pre>
 */
@PublicEvolving
public final class IvmTables {
    /** The name of the payload column, after the head's. */
    public static final String PAYLOAD = "payload";

    private IvmTables() {}

    /**
     * The view and the rows that could not become table rows (a head value that does not fit its
     * column's type, e.g. text where the column is BIGINT), with their reasons.
     */
    public record ChangelogTable(Table table, DataStream<DeadLetter> rejected) {}

    /**
     * The changelog of {@code job} as an upsert table keyed by the head.
     *
     * @param headTypes the types of the head's columns, in head order: BIGINT, INT, DOUBLE, BOOLEAN or
     *     STRING (any value is written as its text)
     * @throws IllegalArgumentException if the job emits snapshots, the types do not match the head, or
     *     the head is empty and the job does not emit an update's old payload
     *     ({@link IvmOptions#withUpdateBefore}, needed for a table without a key)
     */
    public static <T> ChangelogTable changelog(StreamTableEnvironment tEnv, IvmJob<T> job, DataType... headTypes) {
        if (job.outputMode() != OutputMode.CHANGELOG) {
            throw new IllegalArgumentException("the job emits snapshots; build it with"
                    + " IvmOptions.withOutputMode(OutputMode.CHANGELOG) to read it as a changelog table");
        }
        List<String> head = job.plan().query().head();
        if (headTypes.length != head.size()) {
            throw new IllegalArgumentException(
                    "the head " + head + " has " + head.size() + " columns, got " + headTypes.length + " types");
        }
        for (int i = 0; i < headTypes.length; i++) {
            LogicalTypeRoot root = headTypes[i].getLogicalType().getTypeRoot();
            if (!List.of(
                            LogicalTypeRoot.BIGINT,
                            LogicalTypeRoot.INTEGER,
                            LogicalTypeRoot.DOUBLE,
                            LogicalTypeRoot.BOOLEAN,
                            LogicalTypeRoot.VARCHAR,
                            LogicalTypeRoot.CHAR)
                    .contains(root)) {
                throw new IllegalArgumentException("column " + head.get(i) + ": type " + headTypes[i]
                        + " is not supported; use BIGINT, INT, DOUBLE, BOOLEAN or STRING");
            }
        }
        if (head.isEmpty() && !job.updateBefore()) {
            throw new IllegalArgumentException("a view without free variables has no key, so its table needs an"
                    + " update's old payload: build the job with IvmOptions.withUpdateBefore(true)");
        }
        Semiring<T> semiring = job.semiring();
        List<DataTypes.Field> fields = new ArrayList<>();
        for (int i = 0; i < head.size(); i++) {
            fields.add(DataTypes.FIELD(head.get(i), headTypes[i].notNull()));
        }
        fields.add(DataTypes.FIELD(PAYLOAD, payloadType(semiring)));
        DataType rowType = DataTypes.ROW(fields.toArray(new DataTypes.Field[0]));
        return table(
                tEnv,
                job.results(),
                new HeadAndPayload<>(semiring, headTypes),
                rowType,
                head,
                head.isEmpty() ? ChangelogMode.all() : ChangelogMode.upsert(),
                "changelog to rows",
                null);
    }

    /**
     * The table of {@code results}, each record made into rows by {@code layout} ({@link ResultsToRows}): the
     * one way from a job's results to a table, for {@link #changelog} and for {@link FlinkIvmSql#sql}.
     *
     * @param key the table's primary key, empty for none
     * @param uid the uid of the conversion's operator, null for none
     */
    static <T> ChangelogTable table(
            StreamTableEnvironment tEnv,
            DataStream<ResultRecord<T>> results,
            ResultsToRows.Layout<? super T> layout,
            DataType rowType,
            List<String> key,
            ChangelogMode mode,
            String name,
            String uid) {
        OutputTag<DeadLetter> rejected = new OutputTag<>("ivm-table-rejected-rows", DeadLetterTypeInfo.INSTANCE);
        SingleOutputStreamOperator<Row> rows = results.process(new ResultsToRows<T>(layout, rejected))
                .returns(ExternalTypeInfo.<Row>of(rowType))
                .name(name)
                .setParallelism(results.getParallelism());
        if (uid != null) {
            rows = rows.uid(uid);
        }
        return new ChangelogTable(fromRows(tEnv, rows, rowType, key, mode), rows.getSideOutput(rejected));
    }

    /** The table of a changelog of rows of {@code rowType}, with {@code key} as its primary key (empty for none). */
    static Table fromRows(
            StreamTableEnvironment tEnv, DataStream<Row> rows, DataType rowType, List<String> key, ChangelogMode mode) {
        Schema.Builder schema = Schema.newBuilder().fromRowDataType(rowType);
        if (!key.isEmpty()) {
            schema.primaryKey(key);
        }
        return tEnv.fromChangelogStream(rows, schema.build(), mode);
    }

    /** The payload column's type: BIGINT, BOOLEAN or DOUBLE for those payloads, otherwise their text. */
    static DataType payloadType(Semiring<?> semiring) {
        Class<?> c = semiring.payloadClass();
        if (c == Long.class) {
            return DataTypes.BIGINT().notNull();
        }
        if (c == Boolean.class) {
            return DataTypes.BOOLEAN().notNull();
        }
        if (c == Double.class) {
            return DataTypes.DOUBLE().notNull();
        }
        return DataTypes.STRING().notNull();
    }

    /** A record as a row of the head's values, typed as the caller says, and the payload. */
    private static final class HeadAndPayload<T> implements ResultsToRows.Layout<T> {
        private static final long serialVersionUID = 1L;
        private final Semiring<T> semiring;
        private final LogicalTypeRoot[] types;
        private final boolean textPayload;

        HeadAndPayload(Semiring<T> semiring, DataType[] headTypes) {
            this.semiring = semiring;
            this.types = new LogicalTypeRoot[headTypes.length];
            for (int i = 0; i < headTypes.length; i++) {
                types[i] = headTypes[i].getLogicalType().getTypeRoot();
            }
            Class<?> c = semiring.payloadClass();
            this.textPayload = c != Long.class && c != Boolean.class && c != Double.class;
        }

        @Override
        public long rows(ResultRecord<? extends T> r) {
            return 1;
        }

        @Override
        public ResultRecord.Kind kind(ResultRecord<? extends T> r, long rows) {
            return r.kind();
        }

        @Override
        public Object[] values(ResultRecord<? extends T> r) throws RejectedRowException {
            Tuple t = r.tuple();
            Object[] row = new Object[types.length + 1];
            for (int i = 0; i < types.length; i++) {
                Object v = convert(t.get(i), types[i]);
                if (v == null) {
                    throw new RejectedRowException("value " + t.get(i) + " ("
                            + t.get(i).getClass().getSimpleName() + ") does not fit column " + (i + 1) + " of type "
                            + types[i]);
                }
                row[i] = v;
            }
            T payload = r.payload();
            row[types.length] = textPayload ? semiring.format(payload) : payload;
            return row;
        }

        /** The value as the column's type, or null if it does not fit. */
        private static Object convert(Object v, LogicalTypeRoot type) {
            return switch (type) {
                case BIGINT -> v instanceof Long || v instanceof Integer ? ((Number) v).longValue() : null;
                case INTEGER ->
                    v instanceof Integer ? v : v instanceof Long l && l == l.intValue() ? l.intValue() : null;
                case DOUBLE -> v instanceof Number n ? n.doubleValue() : null;
                case BOOLEAN -> v instanceof Boolean ? v : null;
                default -> String.valueOf(v);
            };
        }
    }
}
