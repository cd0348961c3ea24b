package io.flinkivm.examples.kafka;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.core.query.ChangeKind;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.BooleanSemiring;
import io.flinkivm.core.semiring.IntegerRing;
import io.flinkivm.core.semiring.NaturalSemiring;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.flink.types.InputRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RecordParserTest {

    static final String QUERY = "Q(A,C) :- R1(A,B), R2(B,C), R4(C)";

    static <T> RecordParser<T> parser(Semiring<T> k, RecordFormat format, Map<String, String> topics) {
        return new RecordParser<>(QueryParser.parse(QUERY), k, format, topics);
    }

    static final RecordParser<Long> CSV = parser(NaturalSemiring.INSTANCE, RecordFormat.CSV, Map.of());
    static final RecordParser<Long> JSON = parser(NaturalSemiring.INSTANCE, RecordFormat.JSON, Map.of());
    static final Map<String, String> TOPICS = Map.of("t1", "R1", "t2", "R2", "t4", "R4");
    static final RecordParser<Long> CSV_BY_TOPIC = parser(NaturalSemiring.INSTANCE, RecordFormat.CSV, TOPICS);
    static final RecordParser<Long> JSON_BY_TOPIC = parser(NaturalSemiring.INSTANCE, RecordFormat.JSON, TOPICS);

    static InputRecord<Long> parse(RecordParser<Long> p, String topic, String text) throws RejectedRecordException {
        return p.parse(topic, text.getBytes(UTF_8), topic + "-0@7");
    }

    @Test
    void csvInsertWithAndWithoutPayload() throws Exception {
        assertThat(parse(CSV, "in", "R1,a,b,3")).isEqualTo(InputRecord.insert("R1", Tuple.of("a", "b"), 3L, "in-0@7"));
        assertThat(parse(CSV, "in", "R1,a,b")).isEqualTo(InputRecord.insert("R1", Tuple.of("a", "b"), 1L, "in-0@7"));
        assertThat(parse(CSV, "in", "R4,\"c,1\",2\r\n").tuple()).isEqualTo(Tuple.of("c,1"));
        assertThat(parse(CSV, "in", "R4,,2\n").tuple()).isEqualTo(Tuple.of(""));
    }

    @Test
    void aByteOrderMarkIsDropped() throws Exception {
        byte[] bom = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF, 'R', '4', ',', 'c'};
        assertThat(CSV.parse("in", bom, "o").relation()).isEqualTo("R4");
    }

    @Test
    void csvOnARelationTopicCarriesValuesOnly() throws Exception {
        assertThat(parse(CSV_BY_TOPIC, "t1", "a,b,3"))
                .isEqualTo(InputRecord.insert("R1", Tuple.of("a", "b"), 3L, "t1-0@7"));
        assertThat(parse(CSV_BY_TOPIC, "t4", "#c")).isEqualTo(InputRecord.insert("R4", Tuple.of("#c"), 1L, "t4-0@7"));
        assertThat(parse(CSV_BY_TOPIC, "t4", "#snapshot").isSnapshotRequest()).isTrue();
    }

    @Test
    void jsonInsert() throws Exception {
        assertThat(parse(JSON, "in", "{\"relation\":\"R1\",\"values\":[\"a\",7],\"payload\":\"3\"}"))
                .isEqualTo(InputRecord.insert("R1", Tuple.of("a", "7"), 3L, "in-0@7"));
        assertThat(parse(JSON, "in", "{\"values\":[true],\"relation\":\"R4\",\"payload\":4}"))
                .isEqualTo(InputRecord.insert("R4", Tuple.of("true"), 4L, "in-0@7"));
        assertThat(parse(JSON, "in", "{\"relation\":\"R4\",\"values\":[\"c\"]}").payload())
                .isEqualTo(1L);
    }

    @Test
    void jsonOnARelationTopic() throws Exception {
        assertThat(parse(JSON_BY_TOPIC, "t2", "{\"values\":[\"b\",\"c\"],\"payload\":2}"))
                .isEqualTo(InputRecord.insert("R2", Tuple.of("b", "c"), 2L, "t2-0@7"));
        assertThat(parse(JSON_BY_TOPIC, "t2", "{\"relation\":\"R2\",\"values\":[\"b\",\"c\"]}")
                        .relation())
                .isEqualTo("R2");
    }

    @Test
    void jsonBooleanPayload() throws Exception {
        RecordParser<Boolean> p = parser(BooleanSemiring.INSTANCE, RecordFormat.JSON, Map.of());
        assertThat(p.parse("in", "{\"relation\":\"R4\",\"values\":[\"c\"],\"payload\":false}".getBytes(UTF_8), "o")
                        .payload())
                .isFalse();
    }

    @Test
    void controlRecords() throws Exception {
        assertThat(parse(CSV, "in", "#snapshot").isSnapshotRequest()).isTrue();
        assertThat(parse(CSV, "in", "#snapshot\n").isSnapshotRequest()).isTrue();
        assertThat(parse(JSON, "in", " {\"control\" : \"snapshot\"} ").isSnapshotRequest())
                .isTrue();
        assertThat(parse(JSON_BY_TOPIC, "t1", "{\"control\":\"snapshot\"}").isSnapshotRequest())
                .isTrue();
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '`',
            value = {
                "R1,a                 | wrong arity: relation R1 has arity 2 in the query, but the record has 1 field after the relation",
                "R1,a,b,3,4           | wrong arity: relation R1 has arity 2 in the query, but the record has 4 fields",
                "R9,a,b               | unknown relation 'R9'; the query uses R1, R2, R4",
                "R4,c,x               | unparsable natural payload: not a natural number: 'x'",
                "R4,c,-1              | unparsable natural payload",
                "R4,c,99999999999999999999 | exceeds 64 bits",
                "R4,\"c               | bad CSV quoting",
                "``                   | empty record",
                "#flush               | unknown control record '#flush'; the only control record is #snapshot",
            })
    void csvRejects(String text, String reason) {
        assertThatThrownBy(() -> parse(CSV, "in", text))
                .isInstanceOf(RejectedRecordException.class)
                .hasMessageContaining(reason);
    }

    @Test
    void csvRecordIsOneLine() {
        assertThatThrownBy(() -> parse(CSV, "in", "R4,c\nR4,d"))
                .isInstanceOf(RejectedRecordException.class)
                .hasMessage("a CSV record is one line, but this one has a line break at column 5");
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '`',
            value = {
                "R1,a                                          | bad JSON at character 1",
                "{\"relation\":\"R1\",\"values\":[\"a\"]}      | wrong arity: relation R1 has arity 2 in the query, but \"values\" has 1",
                "{\"relation\":\"R9\",\"values\":[\"a\"]}      | unknown relation 'R9'",
                "{\"values\":[\"a\",\"b\"]}                    | field \"relation\" is missing",
                "{\"relation\":null,\"values\":[\"a\",\"b\"]}  | field \"relation\" must be a string, not null",
                "{\"relation\":1,\"values\":[\"a\",\"b\"]}     | field \"relation\" must be a string, not 1",
                "{\"relation\":\"R1\"}                         | field \"values\" is missing",
                "{\"relation\":\"R1\",\"values\":\"a,b\"}      | field \"values\" must be an array, not \"a,b\"",
                "{\"relation\":\"R1\",\"values\":null}         | field \"values\" must be an array, not null",
                "{\"relation\":\"R1\",\"values\":[\"a\",null]} | value 2 of \"values\" is null",
                "{\"relation\":\"R4\",\"values\":[\"c\"],\"payload\":null}  | field \"payload\" is null",
                "{\"relation\":\"R4\",\"values\":[\"c\"],\"payload\":[1]}   | field \"payload\" must be a string, number or boolean",
                "{\"relation\":\"R4\",\"values\":[\"c\"],\"payload\":1.5}   | unparsable natural payload",
                "{\"relation\":\"R4\",\"values\":[\"c\"],\"paylod\":1}      | unknown field \"paylod\"",
                "{\"control\":\"flush\"}                       | unknown control \"flush\"",
                "{\"control\":\"snapshot\",\"values\":[]}      | a control record has only the field \"control\"",
            })
    void jsonRejects(String text, String reason) {
        assertThatThrownBy(() -> parse(JSON, "in", text))
                .isInstanceOf(RejectedRecordException.class)
                .hasMessageContaining(reason);
    }

    @Test
    void relationTopicRejects() {
        assertThatThrownBy(() -> parse(JSON_BY_TOPIC, "t1", "{\"relation\":\"R2\",\"values\":[\"a\",\"b\"]}"))
                .hasMessage("the record names relation R2, but its topic carries R1");
        assertThatThrownBy(() -> parse(CSV_BY_TOPIC, "t1", "a,b,c,d"))
                .hasMessageContaining("wrong arity: relation R1 has arity 2 in the query, but the record has 4 fields"
                        + " (expected 2 values");
        assertThatThrownBy(() -> parse(CSV_BY_TOPIC, "other", "a,b")).hasMessageContaining("not an input topic");
        assertThatThrownBy(() -> parse(JSON_BY_TOPIC, "t1", "{\"values\":[\"a\",\"b\"],\"x\":1}"))
                .hasMessageContaining("a record has the fields values and payload");
    }

    @Test
    void valuesOver64KiBAreRejected() throws Exception {
        String limit = "v".repeat(RecordParser.MAX_VALUE_BYTES);
        assertThat(parse(CSV, "in", "R4," + limit).tuple()).isEqualTo(Tuple.of(limit));
        assertThatThrownBy(() -> parse(CSV, "in", "R4," + limit + "v,2"))
                .isInstanceOf(RejectedRecordException.class)
                .hasMessage("field 2 is longer than 65536 bytes (64 KiB)");
        String euros = "\u20ac".repeat(RecordParser.MAX_VALUE_BYTES / 3 + 1);
        assertThatThrownBy(() -> parse(JSON, "in", "{\"relation\":\"R4\",\"values\":[\"" + euros + "\"]}"))
                .isInstanceOf(RejectedRecordException.class)
                .hasMessage("value 1 of \"values\" is longer than 65536 bytes (64 KiB)");
    }

    @Test
    void tombstoneAndBadUtf8() {
        assertThatThrownBy(() -> CSV.parse("in", null, "o")).hasMessage("record has no value (a tombstone)");
        byte[] bad = {'R', '4', ',', (byte) 0xC3, (byte) 0x28};
        assertThatThrownBy(() -> CSV.parse("in", bad, "o"))
                .hasMessage("not valid UTF-8: malformed byte sequence at byte 4 of the record");
        byte[] overlong = {'R', '4', ',', (byte) 0xC0, (byte) 0xAF};
        assertThatThrownBy(() -> JSON.parse("in", overlong, "o")).hasMessageContaining("not valid UTF-8");
        byte[] truncated = {'R', '4', ',', (byte) 0xE2, (byte) 0x82};
        assertThatThrownBy(() -> CSV.parse("in", truncated, "o")).hasMessageContaining("not valid UTF-8");
    }

    @Test
    void decodesMultiByteTextAndReusesItsBuffers() throws Exception {
        RecordParser<Long> p = parser(NaturalSemiring.INSTANCE, RecordFormat.CSV, Map.of());
        String longValue = "é".repeat(1000);
        assertThat(p.parse("in", ("R4," + longValue).getBytes(UTF_8), "o").tuple())
                .isEqualTo(Tuple.of(longValue));
        assertThat(p.parse("in", "R4,😀".getBytes(UTF_8), "o").tuple()).isEqualTo(Tuple.of("😀"));
    }

    @Test
    void lenientTextForDeadLetters() {
        assertThat(RecordParser.lenientText(new byte[] {'a', (byte) 0xC3, 'b'}, 10))
                .isEqualTo("a\uFFFDb");
        assertThat(RecordParser.lenientText(null, 10)).isEmpty();
        assertThat(RecordParser.lenientText("abcdef".getBytes(UTF_8), 3)).isEqualTo("abc…");
    }

    static final RecordParser<Long> DEBEZIUM = new RecordParser<>(
            QueryParser.parse(QUERY),
            IntegerRing.INSTANCE,
            RecordFormat.DEBEZIUM_JSON,
            Map.of("t1", "R1", "t4", "R4"),
            Map.of("R1", RowColumn.named("a", "b")));
    static final RecordParser<Long> DEBEZIUM_ONE_TOPIC =
            new RecordParser<>(QueryParser.parse(QUERY), IntegerRing.INSTANCE, RecordFormat.DEBEZIUM_JSON, Map.of());

    static List<InputRecord<Long>> changes(RecordParser<Long> p, String topic, String text)
            throws RejectedRecordException {
        List<InputRecord<Long>> out = new ArrayList<>();
        p.parse(topic, text == null ? null : text.getBytes(UTF_8), topic + "-0@7", out::add);
        return out;
    }

    @Test
    void debeziumEventsBecomeChangesOfTheNamedColumns() throws Exception {
        assertThat(changes(
                        DEBEZIUM,
                        "t1",
                        "{\"before\":{\"id\":1,\"b\":\"y\",\"a\":\"x\"},\"after\":{\"id\":1,\"a\":2.50,\"b\":true},"
                                + "\"op\":\"u\"}"))
                .containsExactly(
                        InputRecord.change(ChangeKind.UPDATE_BEFORE, "R1", Tuple.of("x", "y"), 1L, "t1-0@7"),
                        InputRecord.change(ChangeKind.UPDATE_AFTER, "R1", Tuple.of("2.50", "true"), 1L, "t1-0@7"));
        // Without --columns the row's columns in their order.
        assertThat(changes(DEBEZIUM, "t4", "{\"before\":{\"c\":\"z\"},\"after\":null,\"op\":\"d\"}"))
                .containsExactly(InputRecord.change(ChangeKind.DELETE, "R4", Tuple.of("z"), 1L, "t4-0@7"));
        assertThat(changes(
                        DEBEZIUM_ONE_TOPIC,
                        "in",
                        "{\"after\":{\"c\":\"z\"},\"source\":{\"table\":\"R4\"},\"op\":\"r\"}"))
                .containsExactly(InputRecord.insert("R4", Tuple.of("z"), 1L, "in-0@7"));
    }

    /**
     * An update event as Debezium's JsonConverter writes it with schemas.enable=true: column b is a DECIMAL(10,2)
     * (decimal.handling.mode=precise), 12.34 as "BNI=" and 19.99 as "B88=".
     */
    static final String DEBEZIUM_DECIMAL_UPDATE = "{\"schema\":{\"type\":\"struct\",\"fields\":["
            + "{\"type\":\"struct\",\"fields\":[{\"type\":\"int32\",\"optional\":false,\"field\":\"id\"},"
            + "{\"type\":\"string\",\"optional\":true,\"field\":\"a\"},"
            + "{\"type\":\"bytes\",\"optional\":true,\"name\":\"org.apache.kafka.connect.data.Decimal\","
            + "\"version\":1,\"parameters\":{\"scale\":\"2\",\"connect.decimal.precision\":\"10\"},"
            + "\"field\":\"b\"}],\"optional\":true,\"name\":\"db.inventory.r1.Value\",\"field\":\"before\"},"
            + "{\"type\":\"struct\",\"fields\":[{\"type\":\"int32\",\"optional\":false,\"field\":\"id\"},"
            + "{\"type\":\"string\",\"optional\":true,\"field\":\"a\"},"
            + "{\"type\":\"bytes\",\"optional\":true,\"name\":\"org.apache.kafka.connect.data.Decimal\","
            + "\"version\":1,\"parameters\":{\"scale\":\"2\",\"connect.decimal.precision\":\"10\"},"
            + "\"field\":\"b\"}],\"optional\":true,\"name\":\"db.inventory.r1.Value\",\"field\":\"after\"},"
            + "{\"type\":\"string\",\"optional\":false,\"field\":\"op\"}],\"optional\":false,"
            + "\"name\":\"db.inventory.r1.Envelope\"},"
            + "\"payload\":{\"before\":{\"id\":1,\"a\":\"x\",\"b\":\"BNI=\"},"
            + "\"after\":{\"id\":1,\"a\":\"x\",\"b\":\"B88=\"},"
            + "\"source\":{\"connector\":\"mysql\",\"table\":\"r1\"},\"op\":\"u\",\"ts_ms\":1700000000000}}";

    @Test
    void debeziumDecimalsAreDecodedWithTheScaleOfTheirSchema() throws Exception {
        assertThat(changes(DEBEZIUM, "t1", DEBEZIUM_DECIMAL_UPDATE))
                .containsExactly(
                        InputRecord.change(ChangeKind.UPDATE_BEFORE, "R1", Tuple.of("x", "12.34"), 1L, "t1-0@7"),
                        InputRecord.change(ChangeKind.UPDATE_AFTER, "R1", Tuple.of("x", "19.99"), 1L, "t1-0@7"));
    }

    @Test
    void aDeclaredDecimalColumnReadsBase64WithoutASchema() throws Exception {
        RecordParser<Long> typed = new RecordParser<>(
                QueryParser.parse(QUERY),
                IntegerRing.INSTANCE,
                RecordFormat.DEBEZIUM_JSON,
                Map.of("t1", "R1"),
                Map.of("R1", RowColumn.parseList("a,b:DECIMAL(10,2)")));
        assertThat(changes(typed, "t1", "{\"before\":{\"a\":\"x\",\"b\":\"/do=\"},\"op\":\"d\"}"))
                .containsExactly(InputRecord.change(ChangeKind.DELETE, "R1", Tuple.of("x", "-5.50"), 1L, "t1-0@7"));
        // Debezium's decimal.handling.mode=string with the type declared: a dead letter, never a wrong value.
        assertThatThrownBy(() -> changes(typed, "t1", "{\"after\":{\"a\":\"x\",\"b\":\"12.30\"},\"op\":\"c\"}"))
                .isInstanceOf(RejectedRecordException.class)
                .hasMessageContaining("column b: \"12.30\" is not base64");
    }

    @Test
    void aDebeziumTombstoneIsSkipped() throws Exception {
        assertThat(changes(DEBEZIUM, "t1", null)).isEmpty();
    }

    @ParameterizedTest(name = "{1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "t1 | {\"after\":{\"a\":\"x\"},\"op\":\"c\"}                 | the row of R1 has no column b; it has [a]",
                "t1 | {\"after\":{\"a\":null,\"b\":1},\"op\":\"c\"}          | column a is null; tuples have no nulls",
                "t1 | {\"after\":{\"a\":[1],\"b\":1},\"op\":\"c\"}           | column a must be a string, number or boolean, not an array",
                "t4 | {\"after\":{\"id\":1,\"c\":\"z\"},\"op\":\"c\"}      | relation R4 has arity 1 in the query, but the row has 2 columns [id, c]; name the 1 to use with --columns R4=...",
                "t9 | {\"after\":{\"c\":\"z\"},\"op\":\"c\"}                 | topic t9 is not an input topic of this job",
                "in | {\"after\":{\"c\":\"z\"},\"op\":\"c\"}                 | the event names no table (source.table)",
                "in | {\"after\":{\"c\":1},\"source\":{\"table\":\"R9\"},\"op\":\"c\"} | unknown relation 'R9'",
            })
    void debeziumRowsThatAreNoTuplesAreRejected(String topic, String text, String reason) {
        RecordParser<Long> p = topic.equals("in") ? DEBEZIUM_ONE_TOPIC : DEBEZIUM;
        assertThatThrownBy(() -> changes(p, topic, text))
                .isInstanceOf(RejectedRecordException.class)
                .hasMessageContaining(reason);
    }

    @Test
    void anUpdateWithABadHalfEmitsNothing() {
        List<InputRecord<Long>> out = new ArrayList<>();
        assertThatThrownBy(() -> DEBEZIUM.parse(
                        "t1",
                        "{\"before\":{\"a\":\"x\",\"b\":\"y\"},\"after\":{\"a\":\"x\"},\"op\":\"u\"}".getBytes(UTF_8),
                        "o",
                        out::add))
                .hasMessageContaining("has no column b");
        assertThat(out).isEmpty();
    }
}
