package io.flinkivm.examples.kafka;

import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.examples.command.Converters;
import io.flinkivm.flink.FlinkIvm;
import io.flinkivm.flink.IvmJob;
import io.flinkivm.flink.IvmOptions;
import io.flinkivm.flink.OutputMode;
import io.flinkivm.flink.types.DeadLetter;
import io.flinkivm.flink.types.DeadLetterTypeInfo;
import io.flinkivm.flink.types.InputRecord;
import io.flinkivm.flink.types.ResultRecord;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.KafkaSourceBuilder;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The Kafka-to-Kafka job: a {@link KafkaSource} over the input topics, {@link ParseRecords} (or
 * {@link NormalizeUpserts} for an upsert input),
 * {@link FlinkIvm#maintain}, and two {@link KafkaSink}s, one for the results and one for the dead
 * letters of both the parser and the maintenance job.
 */
final class KafkaPipeline {

    /** The transaction timeout of both sinks; below the broker's default maximum of 15 minutes. */
    static final String TRANSACTION_TIMEOUT_MS = "60000";

    private KafkaPipeline() {}

    /**
     * What the job reads and writes.
     *
     * @param topicRelations the relation of each input topic, or empty when {@code inputTopics} is one
     *     topic whose records name their relation
     * @param columns the value columns of a relation's rows in change events, with their declared types
     *     (--columns); may be empty
     * @param groupId the consumer group (offsets are committed on checkpoints, for monitoring only) and the
     *     stem of the sinks' transactional ids
     * @param failOnceAfter a test hook: 0, or fail the job once this many records after its first completed
     *     checkpoint ({@link FailOnce})
     * @param inputPartitions the input topics' partitions (0: not known)
     */
    record Settings(
            String bootstrapServers,
            List<String> inputTopics,
            Map<String, String> topicRelations,
            RecordFormat format,
            Map<String, List<RowColumn>> columns,
            String outputTopic,
            String deadLetterTopic,
            DeliveryGuarantee delivery,
            String groupId,
            boolean bounded,
            int parallelism,
            long snapshotEvery,
            long failOnceAfter,
            int inputPartitions,
            OutputMode outputMode) {

        Settings withInputPartitions(int partitions) {
            return new Settings(
                    bootstrapServers,
                    inputTopics,
                    topicRelations,
                    format,
                    columns,
                    outputTopic,
                    deadLetterTopic,
                    delivery,
                    groupId,
                    bounded,
                    parallelism,
                    snapshotEvery,
                    failOnceAfter,
                    partitions,
                    outputMode);
        }

        /**
         * The source's parallelism: no more subtasks than partitions. A reader without a partition would
         * never end an epoch of an unbounded stream and hold every snapshot back; the ingest then runs
         * at {@link #parallelism()} behind a rebalance.
         */
        int sourceParallelism() {
            return inputPartitions > 0 ? Math.min(parallelism, inputPartitions) : parallelism;
        }
    }

    /** Adds the job to {@code env}. */
    static <T> void build(StreamExecutionEnvironment env, Settings s, MaintenancePlan plan, Semiring<T> semiring) {
        KafkaSourceBuilder<RawKafkaRecord> source = KafkaSource.<RawKafkaRecord>builder()
                .setBootstrapServers(s.bootstrapServers())
                .setTopics(s.inputTopics())
                .setGroupId(s.groupId())
                // The result covers every insert: without a checkpoint to restore, read from the start.
                .setStartingOffsets(OffsetsInitializer.earliest())
                .setDeserializer(new RawRecordDeserializer())
                .setProperty("isolation.level", "read_committed")
                .setClientIdPrefix(s.groupId() + "-source");
        if (s.bounded()) {
            source.setBounded(OffsetsInitializer.latest());
        }
        DataStream<RawKafkaRecord> raw = env.fromSource(
                        source.build(), WatermarkStrategy.noWatermarks(), "kafka " + String.join(", ", s.inputTopics()))
                .uid("kafka-source")
                .setParallelism(s.sourceParallelism());
        SingleOutputStreamOperator<InputRecord<T>> inserts;
        RecordParser<T> parser =
                new RecordParser<>(plan.query(), semiring, s.format(), s.topicRelations(), s.columns());
        if (s.format() == RecordFormat.UPSERT_JSON) {
            // The test hook in the source's chain: behind the shuffle, whole inputs fit in the network
            // buffers ahead of the first checkpoint barrier.
            DataStream<RawKafkaRecord> records = failOnce(raw, s, raw.getType(), s.sourceParallelism());
            // One key's records from one partition, in order, to the subtask that holds the key's last row.
            inserts = records.keyBy(new NormalizeUpserts.UpsertKey(), Types.STRING)
                    .process(new NormalizeUpserts<>(parser), FlinkIvm.inputType(semiring))
                    .name("normalize upserts")
                    .uid("kafka-normalize-upserts")
                    .setParallelism(s.parallelism());
        } else {
            inserts = raw.process(new ParseRecords<>(parser), FlinkIvm.inputType(semiring))
                    .name("parse " + Converters.cliName(s.format()) + " records")
                    .uid("kafka-parse")
                    .setParallelism(s.sourceParallelism());
        }
        DataStream<InputRecord<T>> maintained = s.format() == RecordFormat.UPSERT_JSON
                ? inserts
                : failOnce(inserts, s, FlinkIvm.inputType(semiring), s.sourceParallelism());
        IvmJob<T> job = FlinkIvm.maintain(
                maintained,
                plan,
                semiring,
                IvmOptions.defaults()
                        .withSnapshotEvery(s.snapshotEvery())
                        .withParallelism(s.parallelism())
                        .withOutputMode(s.outputMode())
                        // The upserts' deletes are valid by construction: no second copy of the rows.
                        .withRowCheck(s.format() != RecordFormat.UPSERT_JSON));

        // Same parallelism as flink-ivm's sink: a forward edge keeps each snapshot part (and each
        // result tuple's changes) in order.
        int parts = job.results().getParallelism();
        KafkaRecordSerializationSchema<ResultRecord<T>> results = s.outputMode() == OutputMode.CHANGELOG
                ? new ChangelogJson<>(s.outputTopic(), semiring)
                : new ResultRecordJson<>(s.outputTopic(), semiring, plan.query().head(), parts);
        job.results()
                .sinkTo(sink(s, "-results", results))
                .name("kafka " + s.outputTopic())
                .uid("kafka-results-sink")
                .setParallelism(parts);

        DataStream<DeadLetter> deadLetters =
                inserts.getSideOutput(ParseRecords.REJECTED).union(job.deadLetters());
        deadLetters
                .map(new CountDeadLetters(), DeadLetterTypeInfo.INSTANCE)
                .name("count dead letters")
                .uid("kafka-dead-letter-count")
                .setParallelism(1)
                .sinkTo(sink(s, "-dead-letters", new DeadLetterJson(s.deadLetterTopic())))
                .name("kafka " + s.deadLetterTopic())
                .uid("kafka-dead-letters-sink")
                .setParallelism(1);
    }

    /** {@code stream} through {@link FailOnce} when the test hook is on, else {@code stream}. */
    private static <E> DataStream<E> failOnce(
            DataStream<E> stream, Settings s, TypeInformation<E> type, int parallelism) {
        if (s.failOnceAfter() <= 0) {
            return stream;
        }
        return stream.map(new FailOnce<E>(s.failOnceAfter()), type)
                .name("fail once after " + s.failOnceAfter() + " records (test hook)")
                .uid("kafka-fail-once")
                .setParallelism(parallelism);
    }

    private static <X> KafkaSink<X> sink(Settings s, String idSuffix, KafkaRecordSerializationSchema<X> serializer) {
        return KafkaSink.<X>builder()
                .setBootstrapServers(s.bootstrapServers())
                .setRecordSerializer(serializer)
                .setDeliveryGuarantee(s.delivery())
                .setTransactionalIdPrefix(transactionalIdPrefix(s.groupId(), idSuffix))
                .setProperty("transaction.timeout.ms", TRANSACTION_TIMEOUT_MS)
                .build();
    }

    /** The transactional id prefix of a sink: the group id and the sink's role. */
    static String transactionalIdPrefix(String groupId, String idSuffix) {
        return groupId + idSuffix;
    }
}
