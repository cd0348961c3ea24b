package io.flinkivm.examples.kafka;

import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.flink.types.ResultRecord;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Writes a changelog ({@code --output-mode changelog}) as an upsert topic: one record per changed result
 * tuple and trigger, keyed by the tuple, so that the last value per key is the result and a compacted
 * topic keeps just that:
 * <pre>
 * key ["a1","c1"]   value {"payload":"6","kind":"+I","trigger":12,"prefixExact":true}
 * </pre>
 * {@code kind} is {@code +I} (new) or {@code +U} (changed); a tuple that left the result (only the
 * fallback over a semiring that is not positive) is a tombstone, a null value. The triggers' end
 * markers are not written: a key's records come from one sink subtask, in trigger order, which is
 * all an upsert topic needs. An update's old value ({@code -U}) is not written either.
 */
final class ChangelogJson<T> implements KafkaRecordSerializationSchema<ResultRecord<T>> {
    private static final long serialVersionUID = 1L;

    private final String topic;
    private final Semiring<T> semiring;

    ChangelogJson(String topic, Semiring<T> semiring) {
        this.topic = topic;
        this.semiring = semiring;
    }

    @Override
    public ProducerRecord<byte[], byte[]> serialize(ResultRecord<T> r, KafkaSinkContext context, Long timestamp) {
        if (r.isEnd() || r.kind() == ResultRecord.Kind.UPDATE_BEFORE) {
            return null;
        }
        byte[] key = key(r.tuple()).getBytes(StandardCharsets.UTF_8);
        byte[] value = r.kind() == ResultRecord.Kind.DELETE ? null : value(r).getBytes(StandardCharsets.UTF_8);
        return new ProducerRecord<>(topic, null, null, key, value);
    }

    /** The key: the tuple's values as text, a JSON array. */
    static String key(Tuple t) {
        List<String> values = new ArrayList<>(t.arity());
        for (int i = 0; i < t.arity(); i++) {
            values.add(String.valueOf(t.get(i)));
        }
        return Json.stringArray(values);
    }

    /** The value of an insert or update. */
    String value(ResultRecord<T> r) {
        return Json.object(g -> {
            g.writeStringField("payload", semiring.format(r.payload()));
            g.writeStringField("kind", r.kind().shortString());
            g.writeNumberField("trigger", r.snapshotId());
            g.writeBooleanField("prefixExact", r.isPrefixExact());
        });
    }
}
