package io.flinkivm.examples.kafka;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.flinkivm.core.oracle.NaiveEvaluator;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.IntegerRing;
import io.flinkivm.examples.testing.CliRun;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code kafka} over change streams against a real broker ({@link EmbeddedKafka}): three tables with
 * primary keys, one topic of two partitions each (a row's records in the partition of its key, as Debezium
 * and upsert producers write them), creates, updates and deletes, deletes of rows that are not there and
 * malformed records; parallelism 2, exactly-once, a task failure injected between checkpoints, output as
 * an upsert topic. Read as a table, the output equals the naive evaluator's result over the final
 * database, and every impossible or malformed record is one dead letter with its reason. Once with
 * Debezium-JSON (tombstones after deletes, some events in the schema envelope) on heap state, once with an
 * upsert input on RocksDB.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ChangeStreamKafkaITCase {

    static final String QUERY = "Q(A,C) :- R(A,B), S(A,C,D), T(A)";
    /** Each table's columns; the first is the primary key, the others are the relation's values. */
    static final Map<String, List<String>> TABLES = new TreeMap<>(
            Map.of("R", List.of("id", "a", "b"), "S", List.of("id", "a", "c", "d"), "T", List.of("id", "a")));

    static final int PARTITIONS = 2;

    /** The join values of the rows that make a result tuple leave: one per table, in the order of TABLES. */
    static final List<String> LEAVING = List.of("u", "v", "w");

    /** The first primary key of those rows, in partition 0, above the random changes' keys. */
    static final int SPECIAL_IDS = 1_000_000;

    static EmbeddedKafka kafka;

    @BeforeAll
    static void startKafka() throws Exception {
        kafka = EmbeddedKafka.start();
    }

    @AfterAll
    static void stopKafka() {
        if (kafka != null) {
            kafka.close();
        }
    }

    enum Op {
        CREATE,
        UPDATE,
        DELETE,
        /** A delete of a row that is not there. */
        ABSENT_DELETE,
        /** A record that is no change. */
        MALFORMED
    }

    /** One generated change of a table's row with primary key {@code id}; {@code before}/{@code after} may be null. */
    record Change(String table, int id, Op op, List<String> before, List<String> after) {
        int partition() {
            return id % PARTITIONS;
        }
    }

    /** What a produced record must become. */
    enum Expect {
        APPLIED,
        /** The dead letter of a delete of an absent row (or key). */
        ABSENT,
        /** The parser's dead letter. */
        MALFORMED,
        /** Skipped: Debezium's tombstone after a delete. */
        SKIPPED
    }

    /** A record to produce, with what it must become. */
    record Produced(byte[] key, byte[] value, Expect expect) {}

    /** The tables' live rows by primary key, as the generated changes leave them. */
    static final class Database {
        final Map<String, Map<Integer, List<String>>> rows = new TreeMap<>();

        /** The relations: each live row's non-key columns, with its number of occurrences. */
        Map<String, Map<Tuple, Long>> relations() {
            Map<String, Map<Tuple, Long>> out = new HashMap<>();
            for (String table : TABLES.keySet()) {
                Map<Tuple, Long> relation = new HashMap<>();
                for (List<String> row : rows.getOrDefault(table, Map.of()).values()) {
                    relation.merge(Tuple.of(row.subList(1, row.size()).toArray()), 1L, Long::sum);
                }
                out.put(table, relation);
            }
            return out;
        }
    }

    /**
     * Random creates, updates and deletes over small domains, the tables kept at about five live rows so that
     * result tuples come and go; every 40th
     * change deletes a row that is not there (a new key, values outside every domain), every 97th is malformed.
     *
     * <p>Around them, rows that make a result tuple leave in whatever order the job reads the topics: the
     * reader may take a whole partition in one fetch, so tuples that need rows of all three tables at once
     * may never meet in a snapshot. Each table gets, first, one temporary row of its own join value
     * ({@link #LEAVING}) and the other tables' values as rows that stay; the temporary rows are deleted
     * last. All in partition 0, so that each is read in this order. Whichever table's first rows are read
     * last, its temporary row then joins the others' rows that stay, for the whole of its partition's
     * random changes: about {@code n / 6}, more than twice {@code --snapshot-every} (the most a restore can
     * put between two committed snapshots), so some snapshot holds that tuple; the final result does not.
     */
    static List<Change> changes(long seed, int n, Database db) {
        Random random = new Random(seed);
        List<String> tables = new ArrayList<>(TABLES.keySet());
        List<Change> out = new ArrayList<>();
        Map<String, List<String>> temporary = new TreeMap<>();
        Map<String, List<List<String>>> staying = new TreeMap<>();
        int specialId = SPECIAL_IDS;
        for (int t = 0; t < tables.size(); t++) {
            String table = tables.get(t);
            List<List<String>> stays = new ArrayList<>();
            for (int v = 0; v < LEAVING.size(); v++) {
                List<String> row = special(table, specialId, LEAVING.get(v));
                specialId += PARTITIONS;
                out.add(new Change(table, Integer.parseInt(row.get(0)), Op.CREATE, null, row));
                if (v == t) {
                    temporary.put(table, row);
                } else {
                    stays.add(row);
                }
            }
            staying.put(table, stays);
        }
        int nextId = 0;
        for (int i = 0; i < n; i++) {
            String table = tables.get(random.nextInt(tables.size()));
            Map<Integer, List<String>> live = db.rows.computeIfAbsent(table, t -> new LinkedHashMap<>());
            if (i % 40 == 39) {
                int id = nextId++;
                List<String> absent = row(table, id, random);
                absent.set(1, "gone");
                out.add(new Change(table, id, Op.ABSENT_DELETE, absent, null));
            } else if (i % 97 == 96) {
                out.add(new Change(table, random.nextInt(nextId + 1), Op.MALFORMED, null, null));
            } else if (live.isEmpty() || random.nextInt(10) < (live.size() < 5 ? 5 : 2)) {
                int id = nextId++;
                List<String> after = row(table, id, random);
                live.put(id, after);
                out.add(new Change(table, id, Op.CREATE, null, after));
            } else {
                List<Integer> ids = new ArrayList<>(live.keySet());
                int id = ids.get(random.nextInt(ids.size()));
                List<String> before = live.get(id);
                if (random.nextInt(2) == 0) {
                    List<String> after = row(table, id, random);
                    live.put(id, after);
                    out.add(new Change(table, id, Op.UPDATE, before, after));
                } else {
                    live.remove(id);
                    out.add(new Change(table, id, Op.DELETE, before, null));
                }
            }
        }
        temporary.forEach(
                (table, row) -> out.add(new Change(table, Integer.parseInt(row.get(0)), Op.DELETE, row, null)));
        staying.forEach((table, rows) -> rows.forEach(row ->
                db.rows.computeIfAbsent(table, t -> new LinkedHashMap<>()).put(Integer.parseInt(row.get(0)), row)));
        return out;
    }

    /** A row of {@code table} with join value {@code a}, its other columns the first of their domains. */
    static List<String> special(String table, int id, String a) {
        List<String> row = new ArrayList<>(List.of(Integer.toString(id), a));
        List<String> columns = TABLES.get(table);
        for (int c = 2; c < columns.size(); c++) {
            row.add(columns.get(c) + "1");
        }
        return row;
    }

    /** A row of {@code table}: the key, then a value x1..x3 of each column. */
    static List<String> row(String table, int id, Random random) {
        List<String> row = new ArrayList<>();
        row.add(Integer.toString(id));
        List<String> columns = TABLES.get(table);
        for (int c = 1; c < columns.size(); c++) {
            row.add(columns.get(c) + (1 + random.nextInt(3)));
        }
        return row;
    }

    /** A row as JSON, the key column a number. */
    static String json(String table, List<String> row) {
        if (row == null) {
            return "null";
        }
        List<String> columns = TABLES.get(table);
        StringBuilder sb =
                new StringBuilder("{\"").append(columns.get(0)).append("\":").append(row.get(0));
        for (int c = 1; c < columns.size(); c++) {
            sb.append(",\"")
                    .append(columns.get(c))
                    .append("\":\"")
                    .append(row.get(c))
                    .append('"');
        }
        return sb.append('}').toString();
    }

    static byte[] key(Change c) {
        return ("{\"id\":" + c.id() + "}").getBytes(UTF_8);
    }

    /** Debezium's records of a change (as its JsonConverter writes them; every 10th in the schema envelope). */
    static List<Produced> debezium(Change c, int i) {
        String op = switch (c.op()) {
            case CREATE -> i < 30 ? "r" : "c";
            case UPDATE -> "u";
            case DELETE, ABSENT_DELETE -> "d";
            case MALFORMED -> i % 2 == 0 ? "x" : "c";
        };
        String payload = "{\"before\":" + json(c.table(), c.before()) + ",\"after\":" + json(c.table(), c.after())
                + ",\"source\":{\"connector\":\"postgresql\",\"db\":\"shop\",\"schema\":\"public\","
                + "\"table\":\"" + c.table() + "\"},\"op\":\"" + op
                + "\",\"ts_ms\":1764950000000,\"transaction\":null}";
        String value = i % 10 == 0
                ? "{\"schema\":{\"type\":\"struct\",\"optional\":false},\"payload\":" + payload + "}"
                : payload;
        Produced event = new Produced(
                key(c),
                value.getBytes(UTF_8),
                switch (c.op()) {
                    case ABSENT_DELETE -> Expect.ABSENT;
                    case MALFORMED -> Expect.MALFORMED;
                    default -> Expect.APPLIED;
                });
        return c.op() == Op.DELETE ? List.of(event, new Produced(key(c), null, Expect.SKIPPED)) : List.of(event);
    }

    /** An upsert topic's record of a change: the key, and the row or null. */
    static List<Produced> upsert(Change c, int i) {
        return List.of(
                switch (c.op()) {
                    case CREATE, UPDATE ->
                        new Produced(key(c), json(c.table(), c.after()).getBytes(UTF_8), Expect.APPLIED);
                    case DELETE -> new Produced(key(c), null, Expect.APPLIED);
                    case ABSENT_DELETE -> new Produced(key(c), null, Expect.ABSENT);
                    case MALFORMED -> new Produced(key(c), "{\"id\":1,".getBytes(UTF_8), Expect.MALFORMED);
                });
    }

    @Test
    void debeziumInUpsertOutExactAfterAFailure() throws Exception {
        runAndCheck("debezium-json", ChangeStreamKafkaITCase::debezium, "holds no such row", "op", "heap");
    }

    @Test
    void upsertInUpsertOutExactAfterAFailure() throws Exception {
        runAndCheck("upsert-json", ChangeStreamKafkaITCase::upsert, "no row has that key", "bad JSON", "rocksdb");
    }

    /**
     * Debezium's DECIMAL columns (decimal.handling.mode=precise): base64 bytes with the scale in the schema
     * envelope, or, without it, read through the type --columns declares (also as a VariableScaleDecimal
     * struct). A string that is no base64 is a dead letter, not a value.
     */
    @Test
    void debeziumDecimalsAreDecoded() throws Exception {
        String topic = "decimals.public.orders";
        kafka.createTopic(topic, 1);
        String schema = "{\"type\":\"struct\",\"fields\":[{\"type\":\"int32\",\"field\":\"id\"},"
                + "{\"type\":\"string\",\"field\":\"a\"},{\"type\":\"bytes\","
                + "\"name\":\"org.apache.kafka.connect.data.Decimal\",\"version\":1,"
                + "\"parameters\":{\"scale\":\"2\",\"connect.decimal.precision\":\"10\"},\"field\":\"price\"}],"
                + "\"optional\":true,\"name\":\"shop.public.orders.Value\",\"field\":\"%s\"}";
        String envelope = "{\"schema\":{\"type\":\"struct\",\"fields\":[" + schema.formatted("before") + ","
                + schema.formatted("after") + ",{\"type\":\"string\",\"field\":\"op\"}],"
                + "\"name\":\"shop.public.orders.Envelope\"},\"payload\":%s}";
        List<String> events = List.of(
                // 12.34 with the scale in the envelope's schema.
                envelope.formatted(
                        "{\"before\":null,\"after\":{\"id\":1,\"a\":\"x\",\"price\":\"BNI=\"},\"op\":\"c\"}"),
                // -5.50 without an envelope: --columns declares DECIMAL(10,2).
                "{\"before\":null,\"after\":{\"id\":2,\"a\":\"y\",\"price\":\"/do=\"},\"op\":\"c\"}",
                "{\"before\":null,\"after\":{\"id\":3,\"a\":\"z\",\"price\":7},\"op\":\"c\"}",
                // 12.34 to 19.99.
                envelope.formatted("{\"before\":{\"id\":1,\"a\":\"x\",\"price\":\"BNI=\"},"
                        + "\"after\":{\"id\":1,\"a\":\"x\",\"price\":\"B88=\"},\"op\":\"u\"}"),
                // -5.500 as a VariableScaleDecimal: the row of -5.50 goes.
                "{\"before\":{\"id\":2,\"a\":\"y\",\"price\":{\"scale\":3,\"value\":\"6oQ=\"}},\"after\":null,"
                        + "\"op\":\"d\"}",
                // decimal.handling.mode=string under a declared DECIMAL: a dead letter.
                "{\"before\":null,\"after\":{\"id\":4,\"a\":\"w\",\"price\":\"12.30\"},\"op\":\"c\"}");
        List<byte[]> keys = new ArrayList<>();
        List<byte[]> values = new ArrayList<>();
        for (int i = 0; i < events.size(); i++) {
            keys.add(("{\"id\":" + i + "}").getBytes(UTF_8));
            values.add(events.get(i).getBytes(UTF_8));
        }
        kafka.produce(topic, 0, keys, values);

        CliRun run = CliRun.of(
                "kafka",
                "--query",
                "Q(A,P) :- R(A,P)",
                "--semiring",
                "integer",
                "--format",
                "debezium-json",
                "--kafka-bootstrap",
                kafka.bootstrapServers(),
                "--relation-topic",
                "R=" + topic,
                "--columns",
                "R=a,price:DECIMAL(10,2)",
                "--output-topic",
                "decimals-results",
                "--dead-letter-topic",
                "decimals-dead-letters",
                "--output-mode",
                "changelog",
                "--bounded",
                "--delivery",
                "at-least-once",
                "--group-id",
                "it-decimals");

        assertThat(run.exitCode()).as("exit code; stderr:%n%s", run.err()).isZero();
        Map<Tuple, String> table = new HashMap<>();
        ObjectMapper json = new ObjectMapper();
        for (ConsumerRecord<byte[], byte[]> r : kafka.readCommitted("decimals-results")) {
            Tuple t = Tuple.of(json.readValue(r.key(), String[].class));
            if (r.value() == null) {
                table.remove(t);
            } else {
                table.put(t, (String)
                        Json.parseObject(new String(r.value(), UTF_8)).get("payload"));
            }
        }
        assertThat(table).isEqualTo(Map.of(Tuple.of("x", "19.99"), "1", Tuple.of("z", "7.00"), "1"));
        Map<String, Map<String, Object>> deadLetters =
                KafkaCommandITCase.DeadLetters.byOrigin(kafka.readCommitted("decimals-dead-letters"));
        assertThat(deadLetters).containsOnlyKeys(topic + "-0@5");
        assertThat((String) deadLetters.get(topic + "-0@5").get("reason"))
                .contains("column price: \"12.30\" is not base64");
    }

    /** How a change becomes records; {@code i} is the change's index. */
    interface Encoding {
        List<Produced> records(Change c, int i);
    }

    /**
     * Runs the kafka command over the generated changes and checks its output; {@code state} heap or rocksdb
     * (on RocksDB the sink keeps managed state, its changelog's marks held in memory between checkpoints).
     */
    private void runAndCheck(
            String format, Encoding encoding, String absentReason, String malformedReason, String state)
            throws Exception {
        Database db = new Database();
        List<Change> changes = changes(2026, 2400, db);
        String prefix = format.replace("-json", "");
        Map<String, Expect> expectedByOrigin = new HashMap<>();
        List<String> args = new ArrayList<>(List.of(
                "kafka",
                "--query",
                QUERY,
                "--semiring",
                "integer",
                "--format",
                format,
                "--kafka-bootstrap",
                kafka.bootstrapServers()));
        for (String table : TABLES.keySet()) {
            String topic = prefix + ".public." + table;
            kafka.createTopic(topic, PARTITIONS);
            for (int p = 0; p < PARTITIONS; p++) {
                List<Produced> part = new ArrayList<>();
                for (int i = 0; i < changes.size(); i++) {
                    Change c = changes.get(i);
                    if (c.table().equals(table) && c.partition() == p) {
                        part.addAll(encoding.records(c, i));
                    }
                }
                List<byte[]> keys = new ArrayList<>();
                List<byte[]> values = new ArrayList<>();
                for (Produced r : part) {
                    keys.add(r.key());
                    values.add(r.value());
                }
                List<RecordMetadata> at = kafka.produce(topic, p, keys, values);
                for (int i = 0; i < part.size(); i++) {
                    RecordMetadata m = at.get(i);
                    expectedByOrigin.put(
                            m.topic() + "-" + m.partition() + "@" + m.offset(),
                            part.get(i).expect());
                }
            }
            List<String> columns = TABLES.get(table);
            args.addAll(List.of(
                    "--relation-topic",
                    table + "=" + topic,
                    "--columns",
                    table + "=" + String.join(",", columns.subList(1, columns.size()))));
        }
        String out = prefix + "-results";
        String deadLetterTopic = prefix + "-dead-letters";
        args.addAll(List.of(
                "--output-topic",
                out,
                "--dead-letter-topic",
                deadLetterTopic,
                "--output-mode",
                "changelog",
                "--snapshot-every",
                "100",
                "--parallelism",
                "2",
                "--state",
                state,
                "--bounded",
                "--delivery",
                "exactly-once",
                "--checkpoint-interval",
                "200",
                "--group-id",
                "it-" + prefix,
                "--restart-attempts",
                "2",
                "--fail-once-after",
                "100"));
        int failuresBefore = FailOnce.INJECTED.get();

        CliRun run = CliRun.of(args.toArray(String[]::new));

        assertThat(run.exitCode()).as("exit code; stderr:%n%s", run.err()).isZero();
        assertThat(FailOnce.INJECTED.get() - failuresBefore)
                .as("injected failures")
                .isPositive();
        Map<Tuple, String> table = new HashMap<>();
        int tombstones = 0;
        ObjectMapper json = new ObjectMapper();
        for (ConsumerRecord<byte[], byte[]> r : kafka.readCommitted(out)) {
            Tuple t = Tuple.of(json.readValue(r.key(), String[].class));
            if (r.value() == null) {
                assertThat(table.remove(t))
                        .as("a tombstone for a tuple in the result: %s", t)
                        .isNotNull();
                tombstones++;
            } else {
                table.put(t, (String)
                        Json.parseObject(new String(r.value(), UTF_8)).get("payload"));
            }
        }
        Map<Tuple, String> expected = new HashMap<>();
        IntegerRing ring = IntegerRing.INSTANCE;
        NaiveEvaluator.evaluate(QueryParser.parse(QUERY), ring, db.relations())
                .forEach((t, payload) -> expected.put(t, ring.format(payload)));
        assertThat(tombstones).as("result tuples that left the result").isPositive();
        assertThat(table).as("the upsert topic as a table").isEqualTo(expected).isNotEmpty();

        Map<String, Map<String, Object>> deadLetters =
                KafkaCommandITCase.DeadLetters.byOrigin(kafka.readCommitted(deadLetterTopic));
        Map<String, Expect> rejected = new HashMap<>();
        expectedByOrigin.forEach((origin, expect) -> {
            if (expect == Expect.ABSENT || expect == Expect.MALFORMED) {
                rejected.put(origin, expect);
            }
        });
        assertThat(deadLetters.keySet()).isEqualTo(rejected.keySet());
        rejected.forEach(
                (origin, expect) -> assertThat((String) deadLetters.get(origin).get("reason"))
                        .as("reason of %s", origin)
                        .contains(expect == Expect.ABSENT ? absentReason : malformedReason));
    }
}
