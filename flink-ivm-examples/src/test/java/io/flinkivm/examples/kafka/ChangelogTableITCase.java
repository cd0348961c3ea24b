package io.flinkivm.examples.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.flinkivm.core.oracle.KDatabase;
import io.flinkivm.core.oracle.NaiveEvaluator;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.NaturalSemiring;
import io.flinkivm.flink.FlinkIvm;
import io.flinkivm.flink.IvmJob;
import io.flinkivm.flink.IvmOptions;
import io.flinkivm.flink.OutputMode;
import io.flinkivm.flink.types.InputRecord;
import io.flinkivm.sql.IvmTables;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.CloseableIterator;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A view's changelog as a Flink table, end to end: written to an {@code upsert-kafka} table on the
 * embedded broker and read back (the last value per key is the result, equal to the naive
 * evaluator's), and queried with Flink SQL (a GROUP BY over the changelog table gives the oracle's
 * totals).
 */
class ChangelogTableITCase {
    private static final String QUERY = "Q(A,C) :- R1(A,B,D,E), R2(A,B,D,F), R3(A,B,G), R4(C), R5(A,C,H)";
    private static EmbeddedKafka kafka;

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

    /** 600 random Ex. 10 inserts over a small domain (so that results change often), Long values. */
    private static List<InputRecord<Long>> inserts(KDatabase<Long> db) {
        Map<String, Integer> arity = Map.of("R1", 4, "R2", 4, "R3", 3, "R4", 1, "R5", 3);
        List<String> relations = List.of("R1", "R2", "R3", "R4", "R5");
        Random r = new Random(15);
        List<InputRecord<Long>> out = new ArrayList<>();
        for (int i = 0; i < 600; i++) {
            String rel = relations.get(r.nextInt(relations.size()));
            Object[] values = new Object[arity.get(rel)];
            for (int v = 0; v < values.length; v++) {
                values[v] = (long) r.nextInt(v == 0 ? 6 : 3);
            }
            long payload = 1 + r.nextInt(3);
            Tuple t = Tuple.of(values);
            db.insert(rel, t, payload);
            out.add(InputRecord.insert(rel, t, payload));
        }
        return out;
    }

    private static StreamExecutionEnvironment environment() {
        Configuration c = new Configuration();
        c.setString("parallelism.default", "2");
        c.setString("pipeline.generic-types", "false");
        return StreamExecutionEnvironment.getExecutionEnvironment(c);
    }

    @Test
    void theChangelogTableWrittenToUpsertKafkaReadsBackAsTheResult() throws Exception {
        KDatabase<Long> db = new KDatabase<>(NaturalSemiring.INSTANCE);
        List<InputRecord<Long>> input = inserts(db);
        ConjunctiveQuery q = QueryParser.parse(QUERY);
        Map<Tuple, Long> expected = NaiveEvaluator.evaluate(q, NaturalSemiring.INSTANCE, db.relations());
        assertThat(expected).hasSizeGreaterThan(10);

        StreamExecutionEnvironment env = environment();
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        IvmJob<Long> job = FlinkIvm.maintain(
                env.fromData(input, FlinkIvm.inputType(NaturalSemiring.INSTANCE)),
                QUERY,
                NaturalSemiring.INSTANCE,
                IvmOptions.defaults().withOutputMode(OutputMode.CHANGELOG).withSnapshotEvery(50));
        IvmTables.ChangelogTable view = IvmTables.changelog(tEnv, job, DataTypes.BIGINT(), DataTypes.BIGINT());
        tEnv.createTemporaryView("q", view.table());
        String topic = "ivm-changelog-upsert";
        kafka.createTopic(topic, 2);
        tEnv.executeSql("CREATE TABLE q_out (A BIGINT, C BIGINT, payload BIGINT, PRIMARY KEY (A, C) NOT ENFORCED)"
                + " WITH ('connector' = 'upsert-kafka', 'topic' = '" + topic + "', 'properties.bootstrap.servers' = '"
                + kafka.bootstrapServers() + "', 'key.format' = 'json', 'value.format' = 'json')");
        tEnv.executeSql("INSERT INTO q_out SELECT A, C, payload FROM q").await();

        ObjectMapper json = new ObjectMapper();
        Map<Tuple, Long> compacted = new HashMap<>();
        List<ConsumerRecord<byte[], byte[]>> records = kafka.readCommitted(topic);
        assertThat(records.size())
                .as("more records than keys: the view changed while it grew")
                .isGreaterThan(expected.size());
        for (ConsumerRecord<byte[], byte[]> r : records) {
            JsonNode key = json.readTree(r.key());
            Tuple t = Tuple.of(key.get("A").asLong(), key.get("C").asLong());
            if (r.value() == null) {
                compacted.remove(t);
            } else {
                compacted.put(t, json.readTree(r.value()).get("payload").asLong());
            }
        }
        assertThat(compacted).isEqualTo(expected);
    }

    @Test
    void flinkSqlOverTheChangelogTableGivesTheOraclesTotals() throws Exception {
        KDatabase<Long> db = new KDatabase<>(NaturalSemiring.INSTANCE);
        List<InputRecord<Long>> input = inserts(db);
        Map<Tuple, Long> result =
                NaiveEvaluator.evaluate(QueryParser.parse(QUERY), NaturalSemiring.INSTANCE, db.relations());
        Map<Long, Long> expected = new HashMap<>();
        result.forEach((t, p) -> expected.merge((Long) t.get(0), p, Long::sum));

        StreamExecutionEnvironment env = environment();
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        IvmJob<Long> job = FlinkIvm.maintain(
                env.fromData(input, FlinkIvm.inputType(NaturalSemiring.INSTANCE)),
                QUERY,
                NaturalSemiring.INSTANCE,
                IvmOptions.defaults().withOutputMode(OutputMode.CHANGELOG).withSnapshotEvery(40));
        tEnv.createTemporaryView(
                "q",
                IvmTables.changelog(tEnv, job, DataTypes.BIGINT(), DataTypes.BIGINT())
                        .table());
        Map<Long, Long> totals = new HashMap<>();
        try (CloseableIterator<Row> rows = tEnv.toChangelogStream(
                        tEnv.sqlQuery("SELECT A, SUM(payload) AS total FROM q GROUP BY A"))
                .collectAsync()) {
            env.execute("Flink SQL over a flink-ivm changelog");
            rows.forEachRemaining(r -> {
                if (r.getKind() == RowKind.INSERT || r.getKind() == RowKind.UPDATE_AFTER) {
                    totals.put((Long) r.getField(0), (Long) r.getField(1));
                } else if (r.getKind() == RowKind.DELETE) {
                    totals.remove((Long) r.getField(0));
                }
            });
        }
        assertThat(totals).isEqualTo(expected);
    }
}
