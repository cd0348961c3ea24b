package io.flinkivm.examples.kafka;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Keeps every record's bytes and position: decoding and validation happen in {@link ParseRecords},
 * where a bad record becomes a dead letter instead of failing the source.
 */
final class RawRecordDeserializer implements KafkaRecordDeserializationSchema<RawKafkaRecord> {
    private static final long serialVersionUID = 1L;

    @Override
    public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<RawKafkaRecord> out) {
        out.collect(
                new RawKafkaRecord(record.topic(), record.partition(), record.offset(), record.key(), record.value()));
    }

    @Override
    public TypeInformation<RawKafkaRecord> getProducedType() {
        return TypeInformation.of(RawKafkaRecord.class);
    }
}
