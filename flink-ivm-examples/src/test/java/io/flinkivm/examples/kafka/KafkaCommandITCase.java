package io.flinkivm.examples.kafka;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.engine.Engines;
import io.flinkivm.core.engine.IvmEngine;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.query.ResultTuple;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.NaturalSemiring;
import io.flinkivm.examples.testing.CliRun;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The {@code kafka} command against a real broker ({@link EmbeddedKafka}) on a local Flink, with
 * malformed records mixed into the inserts: Example 10 of the paper as CSV on one topic, exactly
 * once; and a query with a parallel result sink as JSON on one topic per relation, at least once.
 * The snapshots read back with read_committed equal the core engine's result over the valid inserts,
 * every malformed record is in the dead-letter topic with its reason and offset, and valid +
 * dead-lettered (+ control) = produced.
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class KafkaCommandITCase {

    static final String EX10 = "Q(A,C) :- R1(A,B,D,E), R2(A,B,D,F), R3(A,B,G), R4(C), R5(A,C,H)";

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

    /** One valid insert of Example 10; {@code payload} null means "left out" (the semiring's one). */
    record Insert(String relation, List<String> values, Long payload) {
        long effectivePayload() {
            return payload == null ? 1 : payload;
        }
    }

    /** The variables of each atom of Example 10, in order. */
    static final Map<String, List<String>> EX10_ATOMS = Map.of(
            "R1",
            List.of("A", "B", "D", "E"),
            "R2",
            List.of("A", "B", "D", "F"),
            "R3",
            List.of("A", "B", "G"),
            "R4",
            List.of("C"),
            "R5",
            List.of("A", "C", "H"));

    /**
     * A query whose root views V[A] and V[A,C] share A, so the result sink runs keyed by A at the job's
     * parallelism and each snapshot comes in that many parts.
     */
    static final String SHARED_A = "Q(A,C) :- R(A,B), S(A,B,E), T(A,C,D)";

    static final Map<String, List<String>> SHARED_A_ATOMS =
            Map.of("R", List.of("A", "B"), "S", List.of("A", "B", "E"), "T", List.of("A", "C", "D"));

    /** Random inserts over small domains (a value of variable X is x1, x2 or x3), so that joins produce results. */
    static List<Insert> randomInserts(long seed, int n, Map<String, List<String>> atoms) {
        Random random = new Random(seed);
        List<String> relations = new ArrayList<>(new TreeMap<>(atoms).keySet());
        List<Insert> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String r = relations.get(random.nextInt(relations.size()));
            List<String> values = new ArrayList<>();
            for (String variable : atoms.get(r)) {
                values.add(variable.toLowerCase(Locale.ROOT) + (1 + random.nextInt(3)));
            }
            Long payload = random.nextInt(4) == 0 ? null : (long) (1 + random.nextInt(3));
            out.add(new Insert(r, values, payload));
        }
        return out;
    }

    /** The core engine's result of {@code query} over {@code inserts}, payloads as text. */
    static Map<Tuple, String> expected(String query, List<Insert> inserts) {
        NaturalSemiring k = NaturalSemiring.INSTANCE;
        IvmEngine<Long> engine = Engines.create(Planner.plan(QueryParser.parse(query), k), k);
        for (Insert i : inserts) {
            engine.insert(i.relation(), Tuple.of(i.values().toArray()), i.effectivePayload());
        }
        Map<Tuple, String> out = new HashMap<>();
        for (Iterator<ResultTuple<Long>> it = engine.enumerate(); it.hasNext(); ) {
            ResultTuple<Long> r = it.next();
            out.put(r.tuple(), k.format(r.payload()));
        }
        return out;
    }

    static String csv(Insert i, boolean withRelation) {
        StringBuilder sb = new StringBuilder();
        if (withRelation) {
            sb.append(i.relation()).append(',');
        }
        sb.append(String.join(",", i.values()));
        if (i.payload() != null) {
            sb.append(',').append(i.payload());
        }
        return sb.toString();
    }

    static String json(Insert i, boolean withRelation) {
        StringBuilder sb = new StringBuilder("{");
        if (withRelation) {
            sb.append("\"relation\":\"").append(i.relation()).append("\",");
        }
        sb.append("\"values\":[");
        for (int v = 0; v < i.values().size(); v++) {
            sb.append(v > 0 ? "," : "").append('"').append(i.values().get(v)).append('"');
        }
        sb.append(']');
        if (i.payload() != null) {
            // Alternate number and string payloads: both are accepted.
            sb.append(",\"payload\":").append(i.payload() % 2 == 0 ? "\"" + i.payload() + "\"" : i.payload());
        }
        return sb.append('}').toString();
    }

    @Test
    void csvOnOneTopicExactlyOnce() throws Exception {
        String in = "csv-inserts";
        String out = "csv-results";
        String dl = "csv-dead-letters";
        kafka.createTopic(in, 1);
        List<Insert> inserts = randomInserts(10, 400, EX10_ATOMS);
        // Malformed records, each with a piece of the reason the dead letter must give.
        Map<String, byte[]> malformed = new LinkedHashMap<>();
        malformed.put("wrong arity", "R1,a1,b1".getBytes(UTF_8));
        malformed.put("unknown relation 'R9'", "R9,a1,1".getBytes(UTF_8));
        malformed.put("unparsable natural payload", "R4,c1,-3".getBytes(UTF_8));
        malformed.put("exceeds 64 bits", "R4,c1,99999999999999999999".getBytes(UTF_8));
        malformed.put("bad CSV quoting", "R4,\"c1,3".getBytes(UTF_8));
        malformed.put("not valid UTF-8", new byte[] {'R', '4', ',', (byte) 0xC3, (byte) 0x28, ',', '1'});
        malformed.put("tombstone", null);
        malformed.put("empty record", new byte[0]);
        malformed.put("unknown control record", "#flush".getBytes(UTF_8));
        malformed.put("line break", "R4,c2,1\nR4,c3,1".getBytes(UTF_8));

        // Valid inserts in order, the malformed records spread among them, one control record in the middle.
        List<byte[]> records = new ArrayList<>();
        List<String> expectedReasons = new ArrayList<>(); // null for a valid record or the control record
        List<Integer> validBefore = new ArrayList<>();
        List<byte[]> bad = new ArrayList<>(malformed.values());
        List<String> reasons = new ArrayList<>(malformed.keySet());
        int control = inserts.size() / 2;
        int valid = 0;
        for (int i = 0; i < inserts.size(); i++) {
            if (i % 40 == 7 && !bad.isEmpty()) {
                records.add(bad.remove(0));
                expectedReasons.add(reasons.remove(0));
            }
            if (i == control) {
                records.add("#snapshot".getBytes(UTF_8));
                expectedReasons.add(null);
                validBefore.add(valid);
            }
            records.add(csv(inserts.get(i), true).getBytes(UTF_8));
            expectedReasons.add(null);
            valid++;
        }
        assertThat(bad).as("every malformed record was placed").isEmpty();
        List<RecordMetadata> written = kafka.produce(in, records);

        CliRun run = CliRun.of(
                "kafka",
                "--query",
                EX10,
                "--semiring",
                "natural",
                "--kafka-bootstrap",
                kafka.bootstrapServers(),
                "--input-topic",
                in,
                "--output-topic",
                out,
                "--dead-letter-topic",
                dl,
                "--bounded",
                "--delivery",
                "exactly-once",
                "--checkpoint-interval",
                "200",
                "--group-id",
                "it-csv",
                "--restart-attempts",
                "0");

        assertThat(run.exitCode()).as("exit code; stderr:%n%s", run.err()).isZero();
        int malformedCount = malformed.size();
        assertThat(run.out()).contains("records read: " + records.size() + ", dead letters: " + malformedCount);

        Map<Long, Map<Tuple, String>> snapshots = ResultTopic.completeSnapshots(kafka.readCommitted(out), 1);
        long halfway = validBefore.get(0);
        assertThat(snapshots).containsOnlyKeys(halfway, (long) inserts.size());
        assertThat(snapshots.get(halfway))
                .as("snapshot at the control record")
                .isEqualTo(expected(EX10, inserts.subList(0, (int) halfway)));
        assertThat(snapshots.get((long) inserts.size()))
                .as("final snapshot")
                .isEqualTo(expected(EX10, inserts))
                .isNotEmpty();

        Map<String, Map<String, Object>> letters = DeadLetters.byOrigin(kafka.readCommitted(dl));
        Map<String, String> expectedLetters = new HashMap<>();
        for (int i = 0; i < records.size(); i++) {
            if (expectedReasons.get(i) != null) {
                expectedLetters.put(in + "-0@" + written.get(i).offset(), expectedReasons.get(i));
            }
        }
        assertThat(letters).containsOnlyKeys(expectedLetters.keySet());
        expectedLetters.forEach(
                (origin, reason) -> assertThat((String) letters.get(origin).get("reason"))
                        .as(origin)
                        .contains(reason));
        assertThat(letters.values()).anySatisfy(l -> assertThat(l.get("record")).isEqualTo("R1,a1,b1"));
        assertThat(inserts.size() + letters.size() + 1)
                .as("valid + dead-lettered + control = produced")
                .isEqualTo(records.size());

        List<String> transactions = new ArrayList<>();
        for (TransactionListing t : kafka.admin().listTransactions().all().get(30, TimeUnit.SECONDS)) {
            transactions.add(t.transactionalId());
        }
        assertThat(transactions)
                .as("exactly-once wrote in transactions")
                .anyMatch(id -> id.startsWith("it-csv-results"))
                .anyMatch(id -> id.startsWith("it-csv-dead-letters"));
    }

    /**
     * Exactly-once through a real task failure between checkpoints ({@code --fail-once-after}, see
     * {@link FailOnce}): the job fails after its first completed checkpoint while snapshots are being written
     * into the sinks' open transactions, restarts from the latest checkpoint and replays. Read with
     * read_committed, the result topic holds every snapshot (one every 100 inserts, and the final one) once
     * and complete, each equal to the core engine's result on that prefix: no duplicate, nothing missing.
     */
    @Test
    void exactlyOnceSurvivesAFailureBetweenCheckpoints() throws Exception {
        String in = "eo-inserts";
        String out = "eo-results";
        String dl = "eo-dead-letters";
        kafka.createTopic(in, 1);
        List<Insert> inserts = randomInserts(77, 2050, EX10_ATOMS);
        List<byte[]> records = new ArrayList<>();
        for (Insert i : inserts) {
            records.add(csv(i, true).getBytes(UTF_8));
        }
        kafka.produce(in, records);
        int failuresBefore = FailOnce.INJECTED.get();

        CliRun run = CliRun.of(
                "kafka",
                "--query",
                EX10,
                "--semiring",
                "natural",
                "--kafka-bootstrap",
                kafka.bootstrapServers(),
                "--input-topic",
                in,
                "--output-topic",
                out,
                "--dead-letter-topic",
                dl,
                "--bounded",
                "--delivery",
                "exactly-once",
                "--checkpoint-interval",
                "200",
                "--snapshot-every",
                "100",
                "--group-id",
                "it-eo",
                "--restart-attempts",
                "2",
                "--fail-once-after",
                "300");

        assertThat(run.exitCode()).as("exit code; stderr:%n%s", run.err()).isZero();
        assertThat(FailOnce.INJECTED.get() - failuresBefore)
                .as("injected failures")
                .isEqualTo(1);
        // completeSnapshots fails on a row seen twice in a snapshot and on a snapshot with extra end markers.
        Map<Long, Map<Tuple, String>> snapshots = ResultTopic.completeSnapshots(kafka.readCommitted(out), 1);
        List<Long> ids = new ArrayList<>();
        for (long n = 100; n <= inserts.size(); n += 100) {
            ids.add(n);
        }
        ids.add((long) inserts.size());
        assertThat(snapshots.keySet()).as("snapshot ids").containsExactlyElementsOf(ids);
        for (long n : ids) {
            assertThat(snapshots.get(n))
                    .as("snapshot after %d inserts", n)
                    .isEqualTo(expected(EX10, inserts.subList(0, (int) n)));
        }
        assertThat(snapshots.get((long) inserts.size())).isNotEmpty();
        assertThat(kafka.readCommitted(dl)).as("dead letters").isEmpty();
    }

    @Test
    void jsonWithOneTopicPerRelation() throws Exception {
        List<Insert> inserts = randomInserts(20, 300, SHARED_A_ATOMS);
        Map<String, List<byte[]>> byTopic = new LinkedHashMap<>();
        for (String r : List.of("R", "S", "T")) {
            kafka.createTopic("json-" + r, 1);
            byTopic.put("json-" + r, new ArrayList<>());
        }
        for (Insert i : inserts) {
            byTopic.get("json-" + i.relation()).add(json(i, false).getBytes(UTF_8));
        }
        // Malformed records per topic: topic → (reason piece → record).
        Map<String, Map<String, String>> malformed = Map.of(
                "json-R", Map.of("value 2 of \"values\" is null", "{\"values\":[\"a1\",null]}", "bad JSON", "a1,b1"),
                "json-S",
                        Map.of(
                                "wrong arity",
                                "{\"values\":[\"a1\"]}",
                                "names relation T",
                                "{\"relation\":\"T\",\"values\":[\"a1\",\"b1\",\"e1\"]}"),
                "json-T",
                        Map.of(
                                "unparsable natural payload",
                                "{\"values\":[\"a1\",\"c1\",\"d1\"],\"payload\":\"x\"}",
                                "unknown field \"paylod\"",
                                "{\"values\":[\"a1\",\"c1\",\"d1\"],\"paylod\":2}",
                                "field \"payload\" is null",
                                "{\"values\":[\"a1\",\"c1\",\"d1\"],\"payload\":null}",
                                "unknown control",
                                "{\"control\":\"flush\"}"));
        Map<String, String> expectedLetters = new HashMap<>();
        int produced = 0;
        for (Map.Entry<String, List<byte[]>> e : byTopic.entrySet()) {
            List<byte[]> records = new ArrayList<>(e.getValue());
            List<String> reasons = new ArrayList<>();
            records.forEach(r -> reasons.add(null));
            int at = 1;
            for (Map.Entry<String, String> m :
                    malformed.getOrDefault(e.getKey(), Map.of()).entrySet()) {
                at = Math.min(at + 5, records.size());
                records.add(at, m.getValue().getBytes(UTF_8));
                reasons.add(at, m.getKey());
            }
            List<RecordMetadata> written = kafka.produce(e.getKey(), records);
            for (int i = 0; i < records.size(); i++) {
                if (reasons.get(i) != null) {
                    expectedLetters.put(e.getKey() + "-0@" + written.get(i).offset(), reasons.get(i));
                }
            }
            produced += records.size();
        }

        List<String> args = new ArrayList<>(List.of(
                "kafka",
                "--query",
                SHARED_A,
                "--semiring",
                "natural",
                "--kafka-bootstrap",
                kafka.bootstrapServers(),
                "--format",
                "json",
                "--output-topic",
                "json-results",
                "--dead-letter-topic",
                "json-dead-letters",
                "--bounded",
                "--delivery",
                "at-least-once",
                "--checkpoint-interval",
                "200",
                "--group-id",
                "it-json",
                "--parallelism",
                "2",
                "--state",
                "rocksdb",
                "--restart-attempts",
                "0"));
        for (String r : List.of("R", "S", "T")) {
            args.add("--relation-topic");
            args.add(r + "=json-" + r);
        }
        CliRun run = CliRun.of(args.toArray(new String[0]));

        assertThat(run.exitCode()).as("exit code; stderr:%n%s", run.err()).isZero();
        assertThat(run.out()).contains("records read: " + produced + ", dead letters: " + expectedLetters.size());

        // Topics are read in parallel, so only the final snapshot has a known prefix: all of them.
        // The sink runs keyed by A at parallelism 2: each snapshot comes in two parts.
        Map<Long, Map<Tuple, String>> snapshots = ResultTopic.completeSnapshots(kafka.readCommitted("json-results"), 2);
        assertThat(snapshots).containsOnlyKeys((long) inserts.size());
        assertThat(snapshots.get((long) inserts.size()))
                .isEqualTo(expected(SHARED_A, inserts))
                .isNotEmpty();

        Map<String, Map<String, Object>> letters = DeadLetters.byOrigin(kafka.readCommitted("json-dead-letters"));
        assertThat(letters).containsOnlyKeys(expectedLetters.keySet());
        expectedLetters.forEach(
                (origin, reason) -> assertThat((String) letters.get(origin).get("reason"))
                        .as(origin)
                        .contains(reason));
        assertThat(inserts.size() + letters.size())
                .as("valid + dead-lettered = produced")
                .isEqualTo(produced);
    }

    @Test
    void missingInputTopicFailsBeforeTheJobStarts() {
        CliRun run = CliRun.of(
                "kafka",
                "--query",
                EX10,
                "--semiring",
                "natural",
                "--kafka-bootstrap",
                kafka.bootstrapServers(),
                "--input-topic",
                "no-such-topic",
                "--bounded");

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).contains("input topic no-such-topic does not exist on " + kafka.bootstrapServers());
    }

    /**
     * {@code --output-mode changelog}: the output topic is an upsert topic keyed by the result tuple
     * (created compacted), and its last value per key is the result; every trigger's records are
     * inserts or updates, and a key's records come in trigger order.
     */
    @Test
    void changelogModeWritesACompactedUpsertTopic() throws Exception {
        String in = "changelog-inserts";
        String out = "changelog-results";
        kafka.createTopic(in, 2);
        List<Insert> inserts = randomInserts(31, 500, EX10_ATOMS);
        List<byte[]> records = new ArrayList<>();
        for (Insert i : inserts) {
            records.add(csv(i, true).getBytes(UTF_8));
        }
        kafka.produce(in, records);
        CliRun run = CliRun.of(
                "kafka",
                "--query",
                EX10,
                "--semiring",
                "natural",
                "--kafka-bootstrap",
                kafka.bootstrapServers(),
                "--input-topic",
                in,
                "--output-topic",
                out,
                "--dead-letter-topic",
                "changelog-dead-letters",
                "--bounded",
                "--output-mode",
                "changelog",
                "--snapshot-every",
                "40",
                "--parallelism",
                "2",
                "--checkpoint-interval",
                "200",
                "--group-id",
                "it-changelog",
                "--restart-attempts",
                "0");
        assertThat(run.exitCode()).as("exit code; stderr:%n%s", run.err()).isZero();

        assertThat(kafka.admin()
                        .describeConfigs(List.of(new org.apache.kafka.common.config.ConfigResource(
                                org.apache.kafka.common.config.ConfigResource.Type.TOPIC, out)))
                        .all()
                        .get(30, TimeUnit.SECONDS)
                        .values()
                        .iterator()
                        .next()
                        .get("cleanup.policy")
                        .value())
                .isEqualTo("compact");
        Map<Tuple, String> compacted = new HashMap<>();
        Map<Tuple, Long> lastTrigger = new HashMap<>();
        int updates = 0;
        for (ConsumerRecord<byte[], byte[]> r : kafka.readCommitted(out)) {
            Tuple t = Tuple.of(new com.fasterxml.jackson.databind.ObjectMapper().readValue(r.key(), String[].class));
            Map<String, Object> o = Json.parseObject(new String(r.value(), UTF_8));
            String kind = (String) o.get("kind");
            assertThat(kind).isIn("+I", "+U");
            assertThat(kind.equals("+I")).as("+I exactly for a new key: %s", t).isEqualTo(!compacted.containsKey(t));
            updates += kind.equals("+U") ? 1 : 0;
            long trigger = Long.parseLong(o.get("trigger").toString());
            Long before = lastTrigger.put(t, trigger);
            assertThat(before == null || before < trigger)
                    .as("a key's records in trigger order: %s", t)
                    .isTrue();
            compacted.put(t, (String) o.get("payload"));
        }
        assertThat(updates).as("payloads changed between triggers").isPositive();
        assertThat(compacted).isEqualTo(expected(EX10, inserts)).isNotEmpty();
    }

    /** Reads the dead-letter topic's JSON records. */
    static final class DeadLetters {
        static Map<String, Map<String, Object>> byOrigin(List<ConsumerRecord<byte[], byte[]>> records)
                throws Json.FormatException {
            Map<String, Map<String, Object>> out = new HashMap<>();
            for (ConsumerRecord<byte[], byte[]> r : records) {
                Map<String, Object> o = Json.parseObject(new String(r.value(), UTF_8));
                assertThat(o).containsOnlyKeys("origin", "reason", "record");
                String origin = (String) o.get("origin");
                assertThat(new String(r.key(), UTF_8)).isEqualTo(origin);
                assertThat(out.put(origin, o))
                        .as("one dead letter for %s", origin)
                        .isNull();
            }
            return out;
        }
    }
}
