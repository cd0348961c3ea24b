package io.flinkivm.examples.kafka;

import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.flink.types.ResultRecord;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Writes result records as JSON, keyed by the snapshot id so that a snapshot's part stays in one
 * partition in order:
 * <pre>
 * {"type":"row","snapshot":12,"inserts":12,"prefixExact":true,"values":["a1","c1"],"payload":"6"}
 * {"type":"end","snapshot":12,"inserts":12,"prefixExact":true,"rows":3,"parts":1,"columns":["A","C"]}
 * </pre>
 * A snapshot is complete when {@code parts} end markers with its id have arrived; their {@code rows}
 * add up to its number of rows. The Kafka timestamp is the time of writing (the stream's event time
 * is flink-ivm's insert count, not a clock).
 */
final class ResultRecordJson<T> implements KafkaRecordSerializationSchema<ResultRecord<T>> {
    private static final long serialVersionUID = 1L;

    private final String topic;
    private final Semiring<T> semiring;
    private final List<String> columns;
    private final int parts;

    /**
     * @param columns the query's free variables, in head order
     * @param parts end markers per snapshot (the parallelism of flink-ivm's sink)
     */
    ResultRecordJson(String topic, Semiring<T> semiring, List<String> columns, int parts) {
        this.topic = topic;
        this.semiring = semiring;
        this.columns = List.copyOf(columns);
        this.parts = parts;
    }

    @Override
    public ProducerRecord<byte[], byte[]> serialize(ResultRecord<T> r, KafkaSinkContext context, Long timestamp) {
        String value = format(r);
        byte[] key = Long.toString(r.snapshotId()).getBytes(StandardCharsets.UTF_8);
        return new ProducerRecord<>(topic, null, null, key, value.getBytes(StandardCharsets.UTF_8));
    }

    /** The JSON text of {@code r}. */
    String format(ResultRecord<T> r) {
        return Json.object(g -> {
            g.writeStringField("type", r.isEnd() ? "end" : "row");
            g.writeNumberField("snapshot", r.snapshotId());
            g.writeNumberField("inserts", r.insertCount());
            g.writeBooleanField("prefixExact", r.isPrefixExact());
            if (r.isEnd()) {
                g.writeNumberField("rows", r.rows());
                g.writeNumberField("parts", parts);
                g.writeArrayFieldStart("columns");
                for (String c : columns) {
                    g.writeString(c);
                }
                g.writeEndArray();
            } else {
                Tuple t = r.tuple();
                g.writeArrayFieldStart("values");
                for (int i = 0; i < t.arity(); i++) {
                    g.writeString(String.valueOf(t.get(i)));
                }
                g.writeEndArray();
                g.writeStringField("payload", semiring.format(r.payload()));
            }
        });
    }
}
