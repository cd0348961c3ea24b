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
 * {@code kafka --format debezium-json} against a real broker ({@link EmbeddedKafka}): three tables with
 * primary keys, one topic of two partitions each (a row's events in the partition of its key, as Debezium
 * writes them), creates, updates and deletes with Debezium's tombstones, a few events in the schema
 * envelope, deletes of rows that are not there and malformed events; parallelism 2, exactly-once, a task
 * failure injected between checkpoints, output as an upsert topic. The topic read back as a table equals
 * the naive evaluator's result over the final database, and every impossible or malformed event is one
 * dead letter with its reason.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class DebeziumKafkaITCase {

    static final String QUERY = "Q(A,C) :- R(A,B), S(A,C,D), T(A)";
    /** Each table's columns; the first is the primary key, the others are the relation's values. */
    static final Map<String, List<String>> TABLES = new TreeMap<>(
            Map.of("R", List.of("id", "a", "b"), "S", List.of("id", "a", "c", "d"), "T", List.of("id", "a")));

    static final int PARTITIONS = 2;

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

    /** An event to produce: the table, its partition, the value (null: a tombstone), and what it must become. */
    record Event(String table, int partition, String value, Expect expect) {}

    enum Expect {
        APPLIED,
        /** A delete of a row that is not there: the row check's dead letter. */
        ABSENT,
        /** Not a change event the parser accepts: the parser's dead letter. */
        MALFORMED,
        /** Debezium's tombstone after a delete: skipped. */
        SKIPPED
    }

    /** The tables' live rows by primary key, as the generated events leave them. */
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
     * Random creates (a snapshot read {@code r} for the first rows), updates and deletes over small domains,
     * so that result tuples come and go; every 40th event deletes a row that is not there, a few are
     * malformed, and a delete is followed by its tombstone.
     */
    static List<Event> events(long seed, int n, Database db) {
        Random random = new Random(seed);
        List<String> tables = new ArrayList<>(TABLES.keySet());
        List<Event> out = new ArrayList<>();
        int nextId = 0;
        for (int i = 0; i < n; i++) {
            String table = tables.get(random.nextInt(tables.size()));
            Map<Integer, List<String>> live = db.rows.computeIfAbsent(table, t -> new LinkedHashMap<>());
            boolean envelope = random.nextInt(10) == 0;
            if (i % 40 == 39) {
                // The row's values are outside every domain: no row of the relation has them.
                int id = nextId++;
                List<String> absent = row(table, id, random);
                absent.set(1, "gone");
                out.add(new Event(table, id % PARTITIONS, event("d", absent, null, table, envelope), Expect.ABSENT));
                continue;
            }
            if (i % 97 == 96) {
                int id = random.nextInt(nextId + 1);
                String bad = random.nextBoolean()
                        ? "{\"before\":null,\"after\":{\"id\":" + id + "},\"op\":\"x\"}"
                        : "{\"before\":null,\"after\":null,\"op\":\"c\"}";
                out.add(new Event(table, id % PARTITIONS, bad, Expect.MALFORMED));
                continue;
            }
            int choice = random.nextInt(10);
            if (live.isEmpty() || choice < 4) {
                int id = nextId++;
                List<String> after = row(table, id, random);
                live.put(id, after);
                out.add(new Event(
                        table,
                        id % PARTITIONS,
                        event(i < 30 ? "r" : "c", null, after, table, envelope),
                        Expect.APPLIED));
            } else {
                List<Integer> ids = new ArrayList<>(live.keySet());
                int id = ids.get(random.nextInt(ids.size()));
                List<String> before = live.get(id);
                if (choice < 7) {
                    List<String> after = row(table, id, random);
                    live.put(id, after);
                    out.add(new Event(
                            table, id % PARTITIONS, event("u", before, after, table, envelope), Expect.APPLIED));
                } else {
                    live.remove(id);
                    out.add(new Event(
                            table, id % PARTITIONS, event("d", before, null, table, envelope), Expect.APPLIED));
                    out.add(new Event(table, id % PARTITIONS, null, Expect.SKIPPED));
                }
            }
        }
        return out;
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

    /** A Debezium event as its JsonConverter writes it (the key column a number), optionally in the envelope. */
    static String event(String op, List<String> before, List<String> after, String table, boolean envelope) {
        String payload = "{\"before\":" + image(table, before) + ",\"after\":" + image(table, after)
                + ",\"source\":{\"connector\":\"postgresql\",\"db\":\"shop\",\"schema\":\"public\",\"table\":\""
                + table + "\"},\"op\":\"" + op + "\",\"ts_ms\":1764950000000,\"transaction\":null}";
        return envelope ? "{\"schema\":{\"type\":\"struct\",\"optional\":false},\"payload\":" + payload + "}" : payload;
    }

    static String image(String table, List<String> row) {
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

    @Test
    void debeziumInUpsertOutExactAfterAFailure() throws Exception {
        Database db = new Database();
        List<Event> events = events(2026, 1800, db);
        Map<String, Expect> expectedByOrigin = new HashMap<>();
        List<String> args = new ArrayList<>(List.of(
                "kafka",
                "--query",
                QUERY,
                "--semiring",
                "integer",
                "--format",
                "debezium-json",
                "--kafka-bootstrap",
                kafka.bootstrapServers()));
        for (String table : TABLES.keySet()) {
            String topic = "shop.public." + table;
            kafka.createTopic(topic, PARTITIONS);
            for (int p = 0; p < PARTITIONS; p++) {
                List<Event> part = new ArrayList<>();
                for (Event e : events) {
                    if (e.table().equals(table) && e.partition() == p) {
                        part.add(e);
                    }
                }
                List<byte[]> values = new ArrayList<>();
                part.forEach(
                        e -> values.add(e.value() == null ? null : e.value().getBytes(UTF_8)));
                List<RecordMetadata> at = kafka.produce(topic, p, values);
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
        args.addAll(List.of(
                "--output-topic",
                "dbz-results",
                "--dead-letter-topic",
                "dbz-dead-letters",
                "--output-mode",
                "changelog",
                "--snapshot-every",
                "150",
                "--parallelism",
                "2",
                "--bounded",
                "--delivery",
                "exactly-once",
                "--checkpoint-interval",
                "200",
                "--group-id",
                "it-dbz",
                "--restart-attempts",
                "2",
                "--fail-once-after",
                "300"));
        int failuresBefore = FailOnce.INJECTED.get();

        CliRun run = CliRun.of(args.toArray(String[]::new));

        assertThat(run.exitCode()).as("exit code; stderr:%n%s", run.err()).isZero();
        assertThat(FailOnce.INJECTED.get() - failuresBefore)
                .as("injected failures")
                .isPositive();
        Map<Tuple, String> table = new HashMap<>();
        int tombstones = 0;
        ObjectMapper json = new ObjectMapper();
        for (ConsumerRecord<byte[], byte[]> r : kafka.readCommitted("dbz-results")) {
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
                KafkaCommandITCase.DeadLetters.byOrigin(kafka.readCommitted("dbz-dead-letters"));
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
                        .contains(expect == Expect.ABSENT ? "holds no such row" : "op"));
    }
}
