package io.flinkivm.examples.kafka;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.flinkivm.core.query.ChangeKind;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.examples.command.Converters;
import io.flinkivm.examples.csv.Csv;
import io.flinkivm.flink.types.InputRecord;
import java.io.Serializable;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Turns the value of one Kafka record into an insert or a snapshot request (with {@code --format
 * debezium-json}: the changes of a {@link DebeziumJson} event), or rejects it with a reason. The bytes are decoded as strict UTF-8; a CSV record is one line (a single trailing line
 * break is ignored). A record's payload is optional and defaults to the semiring's one. With a topic
 * per relation ({@code topicRelations} not empty) the relation comes from the record's topic and the
 * record carries only values and payload. Instances are not thread-safe; each Flink subtask has its own.
 */
final class RecordParser<T> implements Serializable {
    private static final long serialVersionUID = 1L;

    /** The CSV control record that asks for a snapshot. */
    static final String CSV_SNAPSHOT = "#snapshot";
    /** The value of the JSON field "control" that asks for a snapshot. */
    static final String JSON_SNAPSHOT = "snapshot";
    /** The longest value (and CSV field) accepted, in UTF-8 bytes. */
    static final int MAX_VALUE_BYTES = 64 * 1024;

    private final Semiring<T> semiring;
    private final RecordFormat format;
    private final Map<String, Integer> arities;
    private final List<String> relations;
    private final Map<String, String> topicRelations;
    private final Map<String, List<RowColumn>> columns;

    private transient CharsetDecoder decoder;
    private transient CharBuffer chars;
    private transient Csv csv;
    private transient List<String> fields;

    /**
     * @param topicRelations the relation of each input topic, or empty when one topic carries every
     *     relation and each record names its own
     */
    RecordParser(
            ConjunctiveQuery query, Semiring<T> semiring, RecordFormat format, Map<String, String> topicRelations) {
        this(query, semiring, format, topicRelations, Map.of());
    }

    /**
     * @param columns for {@link RecordFormat#DEBEZIUM_JSON} and {@link RecordFormat#UPSERT_JSON}: the columns of a relation's rows that are its
     *     values, in order, with their declared types; a relation without an entry takes every column of a row,
     *     in the row's order
     */
    RecordParser(
            ConjunctiveQuery query,
            Semiring<T> semiring,
            RecordFormat format,
            Map<String, String> topicRelations,
            Map<String, List<RowColumn>> columns) {
        this.columns = new HashMap<>(columns);
        this.semiring = semiring;
        this.format = format;
        this.relations = List.copyOf(query.relations());
        this.arities = new HashMap<>();
        for (String r : relations) {
            arities.put(r, query.arityOf(r));
        }
        this.topicRelations = new HashMap<>(topicRelations);
    }

    /**
     * The record's insert or snapshot request.
     *
     * @param origin where the record came from, stored in the insert (topic-partition@offset)
     * @throws RejectedRecordException with the reason the record is not an insert
     */
    InputRecord<T> parse(String topic, byte[] value, String origin) throws RejectedRecordException {
        if (format == RecordFormat.UPSERT_JSON || format == RecordFormat.DEBEZIUM_JSON) {
            throw new IllegalStateException(Converters.cliName(format) + " records are changes, not inserts");
        }
        if (value == null) {
            throw new RejectedRecordException("record has no value (a tombstone)");
        }
        String text = decode(value);
        String relation = topicRelations.isEmpty() ? null : topicRelations.get(topic);
        if (!topicRelations.isEmpty() && relation == null) {
            throw new RejectedRecordException("topic " + topic + " is not an input topic of this job");
        }
        return format == RecordFormat.CSV ? parseCsv(text, relation, origin) : parseJson(text, relation, origin);
    }

    /**
     * The record's changes (two for an update) or snapshot request, given to {@code out} only once the
     * whole record has been read. A Debezium tombstone (a null value after a delete, for compaction) has none.
     *
     * @throws RejectedRecordException with the reason the record is neither
     */
    void parse(String topic, byte[] value, String origin, Consumer<InputRecord<T>> out) throws RejectedRecordException {
        if (format != RecordFormat.DEBEZIUM_JSON) {
            out.accept(parse(topic, value, origin));
            return;
        }
        if (value == null) {
            return;
        }
        DebeziumJson.Event event = DebeziumJson.parse(decode(value));
        String relation = topicRelations.isEmpty() ? event.table() : topicRelations.get(topic);
        if (relation == null) {
            throw new RejectedRecordException(
                    topicRelations.isEmpty()
                            ? "the event names no table (source.table); give each table its own --relation-topic"
                            : "topic " + topic + " is not an input topic of this job");
        }
        checkRelation(relation);
        List<DebeziumJson.Change> changes = event.changes();
        Map<String, JsonNode> schemas = event.columnSchemas();
        InputRecord<T> first =
                change(relation, changes.get(0).kind(), changes.get(0).row(), schemas, origin);
        if (changes.size() == 1) {
            out.accept(first);
            return;
        }
        InputRecord<T> second =
                change(relation, changes.get(1).kind(), changes.get(1).row(), schemas, origin);
        out.accept(first);
        out.accept(second);
    }

    /**
     * The value of a record of an upsert topic ({@link RecordFormat#UPSERT_JSON}), a row as a JSON object of
     * column → value, as the insert of its tuple (payload: the semiring's one) into the topic's relation.
     */
    InputRecord<T> upsertRow(String topic, byte[] value, String origin) throws RejectedRecordException {
        String relation = topicRelations.get(topic);
        if (relation == null) {
            throw new RejectedRecordException("topic " + topic + " is not an input topic of this job");
        }
        ObjectNode row;
        try {
            row = Json.parseTree(decode(value));
        } catch (Json.FormatException e) {
            throw new RejectedRecordException(e.getMessage());
        }
        return change(relation, ChangeKind.INSERT, row, Map.of(), origin);
    }

    /** The change of kind {@code kind} of a row of the relation on {@code topic}, payload the semiring's one. */
    InputRecord<T> rowChange(ChangeKind kind, String topic, Tuple tuple, String origin) {
        return InputRecord.change(kind, topicRelations.get(topic), tuple, semiring.one(), origin);
    }

    /**
     * A row as the change of a tuple with the semiring's one as its payload; {@code schemas}: the field schema of
     * each column, from the event (or empty).
     */
    private InputRecord<T> change(
            String relation, ChangeKind kind, ObjectNode row, Map<String, JsonNode> schemas, String origin)
            throws RejectedRecordException {
        int arity = arities.get(relation);
        List<RowColumn> named = columns.get(relation);
        Object[] values = new Object[arity];
        if (named == null) {
            if (row.size() != arity) {
                throw new RejectedRecordException("wrong arity: relation " + relation + " has arity " + arity
                        + " in the query, but the row has " + row.size() + " column" + (row.size() == 1 ? "" : "s")
                        + " " + fieldNames(row) + "; name the " + arity + " to use with --columns " + relation
                        + "=...");
            }
            int i = 0;
            for (Map.Entry<String, JsonNode> e : row.properties()) {
                values[i++] = columnValue(e.getKey(), e.getValue(), schemas.get(e.getKey()), null);
            }
        } else {
            for (int i = 0; i < arity; i++) {
                RowColumn c = named.get(i);
                JsonNode v = row.get(c.name());
                if (v == null) {
                    throw new RejectedRecordException(
                            "the row of " + relation + " has no column " + c.name() + "; it has " + fieldNames(row));
                }
                values[i] = columnValue(c.name(), v, schemas.get(c.name()), c.type());
            }
        }
        return InputRecord.change(kind, relation, Tuple.wrap(values), semiring.one(), origin);
    }

    private static String columnValue(String column, JsonNode v, JsonNode schema, ColumnType type)
            throws RejectedRecordException {
        String text = ColumnValues.text(column, v, schema, type);
        checkSize(text, "column " + column);
        return text;
    }

    private static String fieldNames(ObjectNode row) {
        List<String> names = new ArrayList<>();
        row.fieldNames().forEachRemaining(names::add);
        return names.toString();
    }

    /** The value as text for a dead letter: lenient UTF-8 (bad bytes become U+FFFD), at most {@code maxChars}. */
    static String lenientText(byte[] value, int maxChars) {
        if (value == null) {
            return "";
        }
        // A char takes at most 3 bytes of UTF-8 (a surrogate pair 4): more bytes cannot change the kept text.
        String s = new String(value, 0, (int) Math.min(value.length, 4L * maxChars + 4), StandardCharsets.UTF_8);
        return DeadLetterJson.cut(s, maxChars);
    }

    private InputRecord<T> parseCsv(String text, String topicRelation, String origin) throws RejectedRecordException {
        String line = text;
        if (line.endsWith("\r\n")) {
            line = line.substring(0, line.length() - 2);
        } else if (line.endsWith("\n")) {
            line = line.substring(0, line.length() - 1);
        }
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '\n' || c == '\r') {
                throw new RejectedRecordException(
                        "a CSV record is one line, but this one has a line break at column " + (i + 1));
            }
        }
        if (line.isEmpty()) {
            throw new RejectedRecordException("empty record");
        }
        if (line.equals(CSV_SNAPSHOT)) {
            return InputRecord.snapshotRequest();
        }
        if (topicRelation == null && line.charAt(0) == '#') {
            throw new RejectedRecordException(
                    "unknown control record '" + line + "'; the only control record is " + CSV_SNAPSHOT);
        }
        if (csv == null) {
            csv = Csv.forRecords();
            fields = new ArrayList<>();
        }
        csv.split(line, fields, RejectedRecordException::new);
        for (int i = 0; i < fields.size(); i++) {
            checkSize(fields.get(i), "field " + (i + 1));
        }
        String relation = topicRelation;
        int first = 0;
        if (relation == null) {
            relation = fields.get(0);
            first = 1;
            checkRelation(relation);
        }
        int arity = arities.get(relation);
        int rest = fields.size() - first;
        if (rest != arity && rest != arity + 1) {
            throw new RejectedRecordException("wrong arity: relation " + relation + " has arity " + arity
                    + " in the query, but the record has " + rest + " field" + (rest == 1 ? "" : "s")
                    + (first == 1 ? " after the relation" : "") + " (expected " + arity + " values, optionally"
                    + " followed by a payload)");
        }
        Object[] values = new Object[arity];
        for (int i = 0; i < arity; i++) {
            values[i] = fields.get(first + i);
        }
        T payload = rest == arity ? semiring.one() : payload(fields.get(fields.size() - 1));
        return InputRecord.insert(relation, Tuple.wrap(values), payload, origin);
    }

    private InputRecord<T> parseJson(String text, String topicRelation, String origin) throws RejectedRecordException {
        Map<String, Object> object;
        try {
            object = Json.parseObject(text);
        } catch (Json.FormatException e) {
            throw new RejectedRecordException(e.getMessage());
        }
        if (object.containsKey("control")) {
            Object control = object.get("control");
            if (object.size() > 1) {
                throw new RejectedRecordException("a control record has only the field \"control\"");
            }
            if (!JSON_SNAPSHOT.equals(control)) {
                throw new RejectedRecordException("unknown control " + describe(control) + "; the only control record"
                        + " is {\"control\":\"snapshot\"}");
            }
            return InputRecord.snapshotRequest();
        }
        for (String name : object.keySet()) {
            if (!name.equals("relation") && !name.equals("values") && !name.equals("payload")) {
                throw new RejectedRecordException("unknown field \"" + name + "\"; a record has the fields "
                        + (topicRelation == null ? "relation, values and payload" : "values and payload")
                        + " (payload optional), or only control");
            }
        }
        String relation = topicRelation;
        if (object.containsKey("relation") || topicRelation == null) {
            Object r = object.get("relation");
            if (!object.containsKey("relation")) {
                throw new RejectedRecordException("field \"relation\" is missing");
            }
            if (!(r instanceof String named)) {
                throw new RejectedRecordException("field \"relation\" must be a string, not " + describe(r));
            }
            if (topicRelation != null && !named.equals(topicRelation)) {
                throw new RejectedRecordException(
                        "the record names relation " + named + ", but its topic carries " + topicRelation);
            }
            relation = named;
            checkRelation(relation);
        }
        if (!object.containsKey("values")) {
            throw new RejectedRecordException("field \"values\" is missing");
        }
        if (!(object.get("values") instanceof List<?> list)) {
            throw new RejectedRecordException(
                    "field \"values\" must be an array, not " + describe(object.get("values")));
        }
        int arity = arities.get(relation);
        if (list.size() != arity) {
            throw new RejectedRecordException("wrong arity: relation " + relation + " has arity " + arity
                    + " in the query, but \"values\" has " + list.size());
        }
        Object[] values = new Object[arity];
        for (int i = 0; i < arity; i++) {
            Object v = list.get(i);
            if (v == null) {
                throw new RejectedRecordException("value " + (i + 1) + " of \"values\" is null");
            }
            values[i] = v.toString();
            checkSize((String) values[i], "value " + (i + 1) + " of \"values\"");
        }
        T payload = semiring.one();
        if (object.containsKey("payload")) {
            Object p = object.get("payload");
            if (p == null) {
                throw new RejectedRecordException("field \"payload\" is null; leave it out for the semiring's one");
            }
            if (p instanceof List<?>) {
                throw new RejectedRecordException(
                        "field \"payload\" must be a string, number or boolean, not an array");
            }
            payload = payload(p.toString());
        }
        return InputRecord.insert(relation, Tuple.wrap(values), payload, origin);
    }

    /** As for the {@code run} command's files: a value may have at most 64 KiB of UTF-8. */
    private static void checkSize(String value, String what) throws RejectedRecordException {
        if (value.length() * 3L <= MAX_VALUE_BYTES) {
            return;
        }
        long bytes = 0;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            bytes += c < 0x80 ? 1 : c < 0x800 || Character.isSurrogate(c) ? 2 : 3;
        }
        if (bytes > MAX_VALUE_BYTES) {
            throw new RejectedRecordException(what + " is longer than " + MAX_VALUE_BYTES + " bytes (64 KiB)");
        }
    }

    private void checkRelation(String relation) throws RejectedRecordException {
        if (!arities.containsKey(relation)) {
            throw new RejectedRecordException(
                    "unknown relation '" + relation + "'; the query uses " + String.join(", ", relations));
        }
    }

    private T payload(String text) throws RejectedRecordException {
        try {
            return semiring.parse(text);
        } catch (IllegalArgumentException e) {
            throw new RejectedRecordException("unparsable " + semiring.name() + " payload: " + e.getMessage());
        }
    }

    private static String describe(Object v) {
        if (v == null) {
            return "null";
        }
        if (v instanceof String s) {
            return "\"" + s + "\"";
        }
        if (v instanceof List<?>) {
            return "an array";
        }
        return v.toString();
    }

    /** Strict UTF-8; a leading byte-order mark is dropped. */
    private String decode(byte[] value) throws RejectedRecordException {
        if (decoder == null) {
            decoder = StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT);
            chars = CharBuffer.allocate(256);
        }
        int offset =
                value.length >= 3 && (value[0] & 0xFF) == 0xEF && (value[1] & 0xFF) == 0xBB && (value[2] & 0xFF) == 0xBF
                        ? 3
                        : 0;
        int n = value.length - offset;
        if (chars.capacity() < n) {
            chars = CharBuffer.allocate(Math.max(2 * chars.capacity(), n));
        }
        chars.clear();
        ByteBuffer bytes = ByteBuffer.wrap(value, offset, n);
        decoder.reset();
        CoderResult result = decoder.decode(bytes, chars, true);
        if (!result.isError()) {
            result = decoder.flush(chars);
        }
        if (result.isError()) {
            throw new RejectedRecordException(
                    "not valid UTF-8: malformed byte sequence at byte " + (bytes.position() + 1) + " of the record");
        }
        chars.flip();
        return chars.toString();
    }
}
