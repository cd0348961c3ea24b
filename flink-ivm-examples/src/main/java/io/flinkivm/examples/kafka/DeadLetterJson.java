package io.flinkivm.examples.kafka;

import io.flinkivm.flink.types.DeadLetter;
import java.nio.charset.StandardCharsets;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Writes dead letters as {@code {"origin":"topic-partition@offset","reason":"...","record":"..."}},
 * keyed by the origin. Reasons longer than {@value #MAX_REASON_CHARS} characters and records longer
 * than {@value #MAX_RECORD_CHARS} are cut (ending in "…"), so that a dead letter always fits into a
 * Kafka record of the default maximum size and a huge bad record cannot stop the job.
 */
final class DeadLetterJson implements KafkaRecordSerializationSchema<DeadLetter> {
    private static final long serialVersionUID = 1L;

    static final int MAX_REASON_CHARS = 1_000;
    static final int MAX_RECORD_CHARS = 64 * 1024;

    private final String topic;

    DeadLetterJson(String topic) {
        this.topic = topic;
    }

    @Override
    public ProducerRecord<byte[], byte[]> serialize(DeadLetter letter, KafkaSinkContext context, Long timestamp) {
        return new ProducerRecord<>(
                topic,
                null,
                null,
                letter.origin().getBytes(StandardCharsets.UTF_8),
                format(letter).getBytes(StandardCharsets.UTF_8));
    }

    /** The JSON text of {@code letter}. */
    static String format(DeadLetter letter) {
        return Json.object(g -> {
            g.writeStringField("origin", letter.origin());
            g.writeStringField("reason", cut(letter.reason(), MAX_REASON_CHARS));
            g.writeStringField("record", cut(letter.record(), MAX_RECORD_CHARS));
        });
    }

    /** {@code s}, or its first {@code max} characters and "…" (never splitting a surrogate pair). */
    static String cut(String s, int max) {
        if (s.length() <= max) {
            return s;
        }
        int end = Character.isHighSurrogate(s.charAt(max - 1)) ? max - 1 : max;
        return s.substring(0, end) + "…";
    }
}
