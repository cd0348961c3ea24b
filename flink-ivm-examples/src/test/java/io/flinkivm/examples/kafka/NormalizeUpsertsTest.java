package io.flinkivm.examples.kafka;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.query.ChangeKind;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.IntegerRing;
import io.flinkivm.flink.types.DeadLetter;
import io.flinkivm.flink.types.InputRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

class NormalizeUpsertsTest {

    static final String TOPIC = "r-upserts";

    static KeyedOneInputStreamOperatorTestHarness<String, RawKafkaRecord, InputRecord<Long>> harness(
            OperatorSubtaskState restore) throws Exception {
        RecordParser<Long> parser = new RecordParser<>(
                QueryParser.parse("Q(A) :- R(A,B)"),
                IntegerRing.INSTANCE,
                RecordFormat.UPSERT_JSON,
                Map.of(TOPIC, "R"),
                Map.of("R", RowColumn.named("a", "b")));
        KeyedOneInputStreamOperatorTestHarness<String, RawKafkaRecord, InputRecord<Long>> h =
                new KeyedOneInputStreamOperatorTestHarness<>(
                        new KeyedProcessOperator<>(new NormalizeUpserts<>(parser)),
                        new NormalizeUpserts.UpsertKey(),
                        Types.STRING);
        if (restore != null) {
            h.initializeState(restore);
        }
        h.open();
        return h;
    }

    static long offset;

    static void send(
            KeyedOneInputStreamOperatorTestHarness<String, RawKafkaRecord, InputRecord<Long>> h,
            String key,
            String value)
            throws Exception {
        h.processElement(new StreamRecord<>(new RawKafkaRecord(
                TOPIC,
                0,
                offset++,
                key == null ? null : key.getBytes(UTF_8),
                value == null ? null : value.getBytes(UTF_8))));
    }

    static List<String> changes(KeyedOneInputStreamOperatorTestHarness<String, RawKafkaRecord, InputRecord<Long>> h) {
        List<String> out = new ArrayList<>();
        for (InputRecord<Long> r : h.extractOutputValues()) {
            out.add(r.kind().shortString() + r.tuple());
        }
        return out;
    }

    static List<String> reasons(KeyedOneInputStreamOperatorTestHarness<String, RawKafkaRecord, InputRecord<Long>> h) {
        List<String> out = new ArrayList<>();
        if (h.getSideOutput(ParseRecords.REJECTED) != null) {
            for (StreamRecord<DeadLetter> r : h.getSideOutput(ParseRecords.REJECTED)) {
                out.add(r.getValue().reason());
            }
        }
        return out;
    }

    static String row(String a, String b) {
        return "{\"id\":1,\"a\":\"" + a + "\",\"b\":\"" + b + "\"}";
    }

    @Test
    void aKeysRowsBecomeInsertUpdateAndDelete() throws Exception {
        try (var h = harness(null)) {
            send(h, "k1", row("x", "y"));
            send(h, "k1", row("x", "y")); // a repeat: nothing
            send(h, "k1", row("x", "z"));
            send(h, "k2", row("x", "z")); // another key, the same values: a second occurrence
            send(h, "k1", null);
            assertThat(changes(h))
                    .containsExactly(
                            "+I" + Tuple.of("x", "y"),
                            "-U" + Tuple.of("x", "y"),
                            "+U" + Tuple.of("x", "z"),
                            "+I" + Tuple.of("x", "z"),
                            "-D" + Tuple.of("x", "z"));
            assertThat(h.extractOutputValues())
                    .allSatisfy(r -> assertThat(r.payload()).isEqualTo(1L));
            assertThat(reasons(h)).isEmpty();
        }
    }

    @Test
    void impossibleRecordsAreDeadLetters() throws Exception {
        try (var h = harness(null)) {
            send(h, "k9", null);
            send(h, null, row("x", "y"));
            send(h, "k1", "{\"a\":\"x\"}");
            send(h, "k1", "not json");
            assertThat(changes(h)).isEmpty();
            assertThat(reasons(h))
                    .hasSize(4)
                    .satisfiesExactly(
                            r -> assertThat(r)
                                    .isEqualTo("delete of key k9: no row has that key; the delete is"
                                            + " rejected and changes nothing"),
                            r -> assertThat(r).contains("needs a key"),
                            r -> assertThat(r).contains("has no column b"),
                            r -> assertThat(r).contains("bad JSON"));
        }
    }

    @Test
    void theLastRowSurvivesARestore() throws Exception {
        OperatorSubtaskState snapshot;
        try (var h = harness(null)) {
            send(h, "k1", row("x", "y"));
            snapshot = h.snapshot(1L, 100L);
        }
        try (var h = harness(snapshot)) {
            send(h, "k1", row("x", "z"));
            send(h, "k1", null);
            send(h, "k1", null);
            assertThat(changes(h))
                    .containsExactly("-U" + Tuple.of("x", "y"), "+U" + Tuple.of("x", "z"), "-D" + Tuple.of("x", "z"));
            assertThat(reasons(h)).singleElement().satisfies(r -> assertThat(r).contains("no row has that key"));
            assertThat(h.extractOutputValues()).extracting(InputRecord::kind).doesNotContain(ChangeKind.INSERT);
        }
    }
}
