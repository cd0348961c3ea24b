package io.flinkivm.examples.kafka;

import io.flinkivm.core.query.ChangeKind;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.flink.types.DeadLetter;
import io.flinkivm.flink.types.InputRecord;
import io.flinkivm.flink.types.TupleTypeInfo;
import java.nio.charset.StandardCharsets;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Turns an upsert topic ({@code --format upsert-json}) into changes, as Flink's ChangelogNormalize does
 * for {@code upsert-kafka}: keyed by the record's key (a row's primary key), it keeps the last row of
 * each key and emits {@code +I} for a key's first row, {@code -U} of the previous row then {@code +U}
 * for a new one (nothing when the row repeats), and {@code -D} of the previous row for a null value.
 * A null value of a key that holds no row, a record without a key and a value that is no row are dead
 * letters ({@link ParseRecords#REJECTED}). Its deletes are valid by construction: the job after it
 * needs no row check. Metrics as {@link ParseRecords}'s.
 */
final class NormalizeUpserts<T> extends KeyedProcessFunction<String, RawKafkaRecord, InputRecord<T>> {
    private static final long serialVersionUID = 1L;

    /** The state of a key's last row. */
    static final String ROW_STATE = "upsert-row";

    private final RecordParser<T> parser;
    private transient ValueState<Tuple> last;
    private transient Counter records;
    private transient Counter rejected;
    private transient LongCounter recordsTotal;

    NormalizeUpserts(RecordParser<T> parser) {
        this.parser = parser;
    }

    /** The key of a record: its topic and its key's bytes (each byte one char, so distinct keys stay distinct). */
    static final class UpsertKey implements KeySelector<RawKafkaRecord, String> {
        private static final long serialVersionUID = 1L;

        @Override
        public String getKey(RawKafkaRecord r) {
            return r.key == null ? r.topic : r.topic + '\u0000' + new String(r.key, StandardCharsets.ISO_8859_1);
        }
    }

    @Override
    public void open(OpenContext context) {
        last = getRuntimeContext().getState(new ValueStateDescriptor<>(ROW_STATE, TupleTypeInfo.INSTANCE));
        records = getRuntimeContext().getMetricGroup().counter(ParseRecords.RECORDS_METRIC);
        rejected = getRuntimeContext().getMetricGroup().counter(ParseRecords.REJECTED_METRIC);
        recordsTotal = new LongCounter();
        getRuntimeContext().addAccumulator(ParseRecords.RECORDS_ACCUMULATOR, recordsTotal);
    }

    @Override
    public void processElement(RawKafkaRecord record, Context ctx, Collector<InputRecord<T>> out) throws Exception {
        records.inc();
        recordsTotal.add(1);
        String origin = record.origin();
        if (record.key == null) {
            reject(record, origin, ctx, "an upsert record needs a key (its row's primary key)");
            return;
        }
        Tuple previous = last.value();
        if (record.value == null) {
            if (previous == null) {
                reject(
                        record,
                        origin,
                        ctx,
                        "delete of key " + RecordParser.lenientText(record.key, 200)
                                + ": no row has that key; the delete is rejected and changes nothing");
                return;
            }
            out.collect(parser.rowChange(ChangeKind.DELETE, record.topic, previous, origin));
            last.clear();
            return;
        }
        InputRecord<T> row;
        try {
            row = parser.upsertRow(record.topic, record.value, origin);
        } catch (RejectedRecordException e) {
            reject(record, origin, ctx, e.getMessage());
            return;
        }
        if (previous == null) {
            out.collect(row);
        } else if (!previous.equals(row.tuple())) {
            out.collect(parser.rowChange(ChangeKind.UPDATE_BEFORE, record.topic, previous, origin));
            out.collect(row.with(ChangeKind.UPDATE_AFTER, row.payload()));
        }
        last.update(row.tuple());
    }

    private void reject(RawKafkaRecord record, String origin, Context ctx, String reason) {
        rejected.inc();
        ctx.output(
                ParseRecords.REJECTED,
                new DeadLetter(
                        origin, reason, RecordParser.lenientText(record.value, DeadLetterJson.MAX_RECORD_CHARS)));
    }
}
