package io.flinkivm.examples.kafka;

import io.flinkivm.flink.types.DeadLetter;
import io.flinkivm.flink.types.DeadLetterTypeInfo;
import io.flinkivm.flink.types.InputRecord;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * Parses Kafka records into changes (inserts; deletes and updates from Debezium events) and snapshot requests; a record that does not parse goes to
 * {@link #REJECTED} as a {@link DeadLetter} with the reason and its topic-partition@offset. Metrics:
 * {@value #RECORDS_METRIC} (records read) and {@value #REJECTED_METRIC} (records rejected here).
 */
final class ParseRecords<T> extends ProcessFunction<RawKafkaRecord, InputRecord<T>> {
    private static final long serialVersionUID = 1L;

    /** The side output of rejected records. */
    static final OutputTag<DeadLetter> REJECTED = new OutputTag<>("kafka-rejected", DeadLetterTypeInfo.INSTANCE);

    static final String RECORDS_METRIC = "ivmKafkaRecords";
    static final String REJECTED_METRIC = "ivmKafkaRejected";
    /** The accumulator of records read, for the command's summary. */
    static final String RECORDS_ACCUMULATOR = "kafka-records";

    private final RecordParser<T> parser;
    private transient Counter records;
    private transient Counter rejected;
    private transient LongCounter recordsTotal;

    ParseRecords(RecordParser<T> parser) {
        this.parser = parser;
    }

    @Override
    public void open(OpenContext context) {
        records = getRuntimeContext().getMetricGroup().counter(RECORDS_METRIC);
        rejected = getRuntimeContext().getMetricGroup().counter(REJECTED_METRIC);
        recordsTotal = new LongCounter();
        getRuntimeContext().addAccumulator(RECORDS_ACCUMULATOR, recordsTotal);
    }

    @Override
    public void processElement(RawKafkaRecord record, Context ctx, Collector<InputRecord<T>> out) {
        records.inc();
        recordsTotal.add(1);
        String origin = record.origin();
        try {
            parser.parse(record.topic, record.value, origin, out::collect);
        } catch (RejectedRecordException e) {
            rejected.inc();
            ctx.output(
                    REJECTED,
                    new DeadLetter(
                            origin,
                            e.getMessage(),
                            RecordParser.lenientText(record.value, DeadLetterJson.MAX_RECORD_CHARS)));
        }
    }
}
