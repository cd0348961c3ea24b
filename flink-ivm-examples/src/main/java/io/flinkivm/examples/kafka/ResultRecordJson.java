package io.flinkivm.examples.kafka;

import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.flink.ResultRecord;
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
    private transient StringBuilder sb;

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
        if (sb == null) {
            sb = new StringBuilder(128);
        }
        sb.setLength(0);
        sb.append('{');
        Json.appendName(sb, "type");
        Json.appendString(sb, r.isEnd() ? "end" : "row");
        Json.appendName(sb, "snapshot").append(r.snapshotId());
        Json.appendName(sb, "inserts").append(r.insertCount());
        Json.appendName(sb, "prefixExact").append(r.isPrefixExact());
        if (r.isEnd()) {
            Json.appendName(sb, "rows").append(r.rows());
            Json.appendName(sb, "parts").append(parts);
            Json.appendName(sb, "columns").append('[');
            for (int i = 0; i < columns.size(); i++) {
                if (i > 0) {
                    sb.append(',');
                }
                Json.appendString(sb, columns.get(i));
            }
            sb.append(']');
        } else {
            Tuple t = r.tuple();
            Json.appendName(sb, "values").append('[');
            for (int i = 0; i < t.arity(); i++) {
                if (i > 0) {
                    sb.append(',');
                }
                Json.appendString(sb, String.valueOf(t.get(i)));
            }
            sb.append(']');
            Json.appendName(sb, "payload");
            Json.appendString(sb, semiring.format(r.payload()));
        }
        return sb.append('}').toString();
    }
}
