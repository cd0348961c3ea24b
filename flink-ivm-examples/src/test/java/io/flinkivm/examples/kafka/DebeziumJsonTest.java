package io.flinkivm.examples.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.core.query.ChangeKind;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DebeziumJsonTest {

    static List<String> kinds(DebeziumJson.Event e) {
        return e.changes().stream().map(c -> c.kind().shortString() + c.row()).toList();
    }

    @Test
    void opsBecomeChangesOfTheirRowImages() throws Exception {
        assertThat(kinds(DebeziumJson.parse("{\"before\":null,\"after\":{\"a\":1},\"op\":\"c\"}")))
                .containsExactly("+I{\"a\":1}");
        assertThat(kinds(DebeziumJson.parse("{\"before\":null,\"after\":{\"a\":1},\"op\":\"r\"}")))
                .containsExactly("+I{\"a\":1}");
        assertThat(kinds(DebeziumJson.parse("{\"before\":{\"a\":1},\"after\":{\"a\":2},\"op\":\"u\"}")))
                .containsExactly("-U{\"a\":1}", "+U{\"a\":2}");
        assertThat(kinds(DebeziumJson.parse("{\"before\":{\"a\":1},\"after\":null,\"op\":\"d\"}")))
                .containsExactly("-D{\"a\":1}");
    }

    @Test
    void readsTheSchemaEnvelopeAndTheSourceTable() throws Exception {
        DebeziumJson.Event e = DebeziumJson.parse("{\"schema\":{\"type\":\"struct\",\"fields\":[]},\"payload\":"
                + "{\"before\":null,\"after\":{\"a\":\"x\"},\"source\":{\"table\":\"orders\",\"db\":\"shop\"},"
                + "\"op\":\"c\",\"ts_ms\":1}}");
        assertThat(e.table()).isEqualTo("orders");
        assertThat(e.changes())
                .singleElement()
                .satisfies(c -> assertThat(c.kind()).isEqualTo(ChangeKind.INSERT));
        assertThat(DebeziumJson.parse("{\"after\":{\"a\":1},\"op\":\"c\"}").table())
                .isNull();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "{\"after\":{\"a\":1}}                              | field \"op\" is missing",
                "{\"after\":{\"a\":1},\"op\":3}                     | field \"op\" must be a string, not 3",
                "{\"after\":{\"a\":1},\"op\":\"x\"}                 | unknown op \"x\"; expected c, r, u or d",
                "{\"op\":\"t\"}                                     | op \"t\" (a truncate) is not supported",
                "{\"before\":null,\"after\":null,\"op\":\"c\"}      | op \"c\" needs field \"after\" as an object, but it is null",
                "{\"before\":null,\"after\":{\"a\":1},\"op\":\"u\"} | needs field \"before\" as an object, but it is null (a database",
                "{\"after\":{\"a\":1},\"op\":\"d\"}                 | op \"d\" needs field \"before\" as an object, but it is missing",
                "{\"op\":\"c\",\"op\":\"c\"}                        | Duplicate field 'op'",
                "[1]                                               | expected a JSON object starting with '{'",
                "{\"op\":\"c\"} x                                   | bad JSON",
            })
    void rejectsWhatIsNotAChangeEvent(String text, String reason) {
        assertThatThrownBy(() -> DebeziumJson.parse(text))
                .isInstanceOf(RejectedRecordException.class)
                .hasMessageContaining(reason);
    }
}
