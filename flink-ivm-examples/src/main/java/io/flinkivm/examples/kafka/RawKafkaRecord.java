package io.flinkivm.examples.kafka;

/**
 * A Kafka record as read, before parsing: where it is, its key's bytes (or null) and its value's
 * bytes (null for a tombstone).
 * A Flink POJO (public fields, no-argument constructor), so it travels without Kryo.
 */
public final class RawKafkaRecord {
    public String topic;
    public int partition;
    public long offset;
    public byte[] key;
    public byte[] value;

    public RawKafkaRecord() {}

    RawKafkaRecord(String topic, int partition, long offset, byte[] key, byte[] value) {
        this.topic = topic;
        this.partition = partition;
        this.offset = offset;
        this.key = key;
        this.value = value;
    }

    /** {@code topic-partition@offset}, the origin of the record's insert or dead letter. */
    String origin() {
        return topic + "-" + partition + "@" + offset;
    }
}
