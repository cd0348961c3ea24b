package io.flinkivm.examples.kafka;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.flink.types.DeadLetter;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

class DeadLetterJsonTest {

    @Test
    void writesOriginReasonAndRecordKeyedByOrigin() throws Exception {
        DeadLetter letter = new DeadLetter("in-0@17", "wrong arity: ...", "R1,\"a\n");
        ProducerRecord<byte[], byte[]> r = new DeadLetterJson("dl").serialize(letter, null, 5L);

        assertThat(r.topic()).isEqualTo("dl");
        assertThat(r.timestamp()).isNull();
        assertThat(new String(r.key(), UTF_8)).isEqualTo("in-0@17");
        assertThat(new String(r.value(), UTF_8))
                .isEqualTo("{\"origin\":\"in-0@17\",\"reason\":\"wrong arity: ...\",\"record\":\"R1,\\\"a\\n\"}");
        assertThat(Json.parseObject(new String(r.value(), UTF_8)))
                .isEqualTo(Map.of("origin", "in-0@17", "reason", "wrong arity: ...", "record", "R1,\"a\n"));
    }

    @Test
    void cutsHugeRecordsAndReasons() throws Exception {
        String huge = "x".repeat(DeadLetterJson.MAX_RECORD_CHARS + 10);
        String reason = "r".repeat(DeadLetterJson.MAX_REASON_CHARS + 1);
        Map<String, Object> o = Json.parseObject(DeadLetterJson.format(new DeadLetter("o", reason, huge)));

        assertThat((String) o.get("record"))
                .hasSize(DeadLetterJson.MAX_RECORD_CHARS + 1)
                .endsWith("x…");
        assertThat((String) o.get("reason")).hasSize(DeadLetterJson.MAX_REASON_CHARS + 1);
    }

    @Test
    void cutNeverSplitsASurrogatePair() {
        assertThat(DeadLetterJson.cut("ab😀", 3)).isEqualTo("ab…");
        assertThat(DeadLetterJson.cut("abc", 3)).isEqualTo("abc");
    }
}
