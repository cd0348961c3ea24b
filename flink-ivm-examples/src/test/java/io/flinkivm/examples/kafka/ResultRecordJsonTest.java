package io.flinkivm.examples.kafka;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.NaturalSemiring;
import io.flinkivm.core.semiring.Polynomial;
import io.flinkivm.core.semiring.ProvenanceSemiring;
import io.flinkivm.flink.types.ResultRecord;
import java.util.List;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

class ResultRecordJsonTest {

    private final ResultRecordJson<Long> json =
            new ResultRecordJson<>("out", NaturalSemiring.INSTANCE, List.of("A", "C"), 2);

    @Test
    void rowsCarryValuesAndPayloadText() {
        ProducerRecord<byte[], byte[]> r =
                json.serialize(ResultRecord.row(12, 12, Tuple.of("a1", "c\"1"), 6L, true), null, 99L);

        assertThat(r.topic()).isEqualTo("out");
        assertThat(r.partition()).isNull();
        assertThat(r.timestamp())
                .as("no event-time timestamp: flink-ivm's event time is an insert count")
                .isNull();
        assertThat(new String(r.key(), UTF_8)).isEqualTo("12");
        assertThat(new String(r.value(), UTF_8))
                .isEqualTo(
                        "{\"type\":\"row\",\"snapshot\":12,\"inserts\":12,\"prefixExact\":true,\"values\":[\"a1\",\"c\\\"1\"],"
                                + "\"payload\":\"6\"}");
    }

    @Test
    void endMarkersCarryRowsPartsAndColumns() {
        assertThat(json.format(ResultRecord.end(3, 5, 7, false)))
                .isEqualTo(
                        "{\"type\":\"end\",\"snapshot\":3,\"inserts\":5,\"prefixExact\":false,\"rows\":7,\"parts\":2,"
                                + "\"columns\":[\"A\",\"C\"]}");
    }

    @Test
    void payloadsUseTheSemiringsTextForm() throws Exception {
        ResultRecordJson<Polynomial> provenance =
                new ResultRecordJson<>("out", ProvenanceSemiring.INSTANCE, List.of("A"), 1);
        Polynomial p = ProvenanceSemiring.INSTANCE.parse("2*x*y + z");
        String text = provenance.format(ResultRecord.row(1, 1, Tuple.of("a"), p, true));

        assertThat(ProvenanceSemiring.INSTANCE.parse(
                        (String) Json.parseObject(text).get("payload")))
                .isEqualTo(p);
    }
}
