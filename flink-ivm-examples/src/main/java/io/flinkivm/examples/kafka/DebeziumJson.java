package io.flinkivm.examples.kafka;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.flinkivm.core.query.ChangeKind;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A Debezium change event in JSON ({@code --format debezium-json}), as Debezium's JsonConverter writes
 * it, with or without its schema envelope ({@code {"schema":...,"payload":{...}}}): {@code op} {@code c}
 * (create) or {@code r} (snapshot read) is an insert of {@code after}, {@code u} the update from
 * {@code before} to {@code after} ({@code -U}, then {@code +U}), {@code d} a delete of {@code before}.
 * Other fields ({@code source}, {@code ts_ms}, {@code transaction}) are ignored, except
 * {@code source.table}, the relation of an event on a topic that carries several tables. The envelope's
 * schema gives each column's field schema, whose logical type says how to read its value
 * ({@link ColumnValues}: Debezium's decimals).
 */
final class DebeziumJson {

    private DebeziumJson() {}

    /** One row's change: the kind and the row, a JSON object of column name → value. */
    record Change(ChangeKind kind, ObjectNode row) {}

    /**
     * A change event: its changes, in the order to apply them, the table it names ({@code source.table}),
     * or null, and the field schema of each column of its rows (empty without a schema envelope).
     */
    record Event(String table, List<Change> changes, Map<String, JsonNode> columnSchemas) {}

    /**
     * The event's changes.
     *
     * @throws RejectedRecordException for JSON that is not a change event, an unknown or unsupported {@code op},
     *     or a missing row image
     */
    static Event parse(String text) throws RejectedRecordException {
        ObjectNode event;
        try {
            event = Json.parseTree(text);
        } catch (Json.FormatException e) {
            throw new RejectedRecordException(e.getMessage());
        }
        Map<String, JsonNode> columnSchemas = Map.of();
        if (event.get("schema") != null && event.get("payload") instanceof ObjectNode payload) {
            columnSchemas = columnSchemas(event.get("schema"));
            event = payload; // the JsonConverter's schemas.enable=true envelope
        }
        JsonNode op = event.get("op");
        if (op == null || !op.isTextual()) {
            throw new RejectedRecordException("not a Debezium change event: field \"op\" "
                    + (op == null ? "is missing" : "must be a string, not " + op)
                    + "; expected {\"before\":{...},\"after\":{...},\"op\":\"c|r|u|d\",...}");
        }
        String table = event.get("source") instanceof ObjectNode source
                        && source.get("table") != null
                        && source.get("table").isTextual()
                ? source.get("table").textValue()
                : null;
        List<Change> changes = switch (op.textValue()) {
            case "c", "r" -> List.of(new Change(ChangeKind.INSERT, image(event, "after", op)));
            case "u" ->
                List.of(
                        new Change(ChangeKind.UPDATE_BEFORE, image(event, "before", op)),
                        new Change(ChangeKind.UPDATE_AFTER, image(event, "after", op)));
            case "d" -> List.of(new Change(ChangeKind.DELETE, image(event, "before", op)));
            case "t" ->
                throw new RejectedRecordException(
                        "op \"t\" (a truncate) is not supported: delete the rows one by one, or restart the"
                                + " job on a fresh topic");
            default ->
                throw new RejectedRecordException("unknown op \"" + op.textValue() + "\"; expected c, r, u or d");
        };
        return new Event(table, changes, columnSchemas);
    }

    /**
     * Column → its field schema, from the schema of the envelope's {@code after} (or {@code before}) struct:
     * {@code {"type":"struct","fields":[{"type":"struct","field":"after","fields":[{"field":"price",...}]}]}}.
     */
    private static Map<String, JsonNode> columnSchemas(JsonNode schema) {
        Map<String, JsonNode> out = new HashMap<>();
        JsonNode fields = schema.get("fields");
        if (fields == null || !fields.isArray()) {
            return out;
        }
        for (JsonNode image : fields) {
            JsonNode name = image.get("field");
            JsonNode columns = image.get("fields");
            if (name == null
                    || !(name.asText().equals("after") || name.asText().equals("before"))
                    || columns == null
                    || !columns.isArray()) {
                continue;
            }
            for (JsonNode column : columns) {
                if (column.get("field") != null) {
                    out.putIfAbsent(column.get("field").asText(), column);
                }
            }
        }
        return out;
    }

    private static ObjectNode image(ObjectNode event, String field, JsonNode op) throws RejectedRecordException {
        JsonNode image = event.get(field);
        if (image instanceof ObjectNode row) {
            return row;
        }
        String hint = field.equals("before")
                ? " (a database that logs only the key of an old row, such as PostgreSQL without REPLICA IDENTITY"
                        + " FULL, cannot feed deletes and updates)"
                : "";
        throw new RejectedRecordException("op " + op + " needs field \"" + field + "\" as an object, but it is "
                + (image == null ? "missing" : image.toString()) + hint);
    }
}
