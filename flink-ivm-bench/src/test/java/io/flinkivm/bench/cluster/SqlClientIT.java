package io.flinkivm.bench.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.flinkivm.core.plan.UnsupportedPlanException;
import io.flinkivm.flink.IvmOptions;
import io.flinkivm.sql.FlinkIvmSql;
import io.flinkivm.sql.catalog.ViewOptions;
import java.io.File;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * flink-ivm from the SQL Client's side: Flink's SQL Gateway (which the SQL Client embeds or talks to; the client
 * itself, {@code flink-sql-client} 2.2.1, is not in the Maven repository the build uses) runs as a JVM of its own
 * beside the local cluster (JobManager and TaskManagers, each a JVM) and the embedded Kafka broker, and every
 * statement goes through its REST API as a user types it: {@code ADD JAR} of flink-ivm's bundle and of the Kafka
 * SQL connector (relative to the gateway's working directory, where a user starts the client), {@code CREATE
 * CATALOG}, tables over Kafka, {@code CALL ivm.sys.maintain_view}. One cluster, one broker and one gateway for
 * the class.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class SqlClientIT {

    @RegisterExtension
    static final LocalFlinkClusterExtension CLUSTER = LocalFlinkClusterExtension.shared();

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = new EmbeddedKafkaExtension();

    static final String QUERY = "SELECT c.region, COUNT(*) AS order_count, SUM(o.amount) AS revenue"
            + " FROM orders o JOIN customers c ON o.customer_id = c.id GROUP BY c.region";
    static final String BOUNDED = " /*+ OPTIONS('scan.bounded.mode' = 'latest-offset') */ ";
    /** Flink SQL's own evaluation of {@link #QUERY}, over everything in the topics now. */
    static final String FLINK_SQL = "SELECT c.region, COUNT(*) AS order_count, SUM(o.amount) AS revenue"
            + " FROM orders" + BOUNDED + "o JOIN customers" + BOUNDED + "c ON o.customer_id = c.id GROUP BY c.region";

    private static final Pattern TOPIC = Pattern.compile("'topic' = '([^']+)'");
    private static final String DOC_BROKER = "localhost:9092";

    static LocalSqlGateway gateway;
    static Path clientDir;

    @BeforeAll
    static void startGateway() throws Exception {
        LocalFlinkCluster cluster = CLUSTER.cluster();
        clientDir = cluster.home().resolve("sql-client");
        Files.createDirectories(clientDir);
        Path bundle = Path.of(property("flinkivm.sqlBundle"));
        Files.copy(bundle, clientDir.resolve(bundle.getFileName()), StandardCopyOption.REPLACE_EXISTING);
        try (Stream<Path> jars = Files.list(Path.of(property("flinkivm.sqlClientJars")))) {
            for (Path jar : jars.toList()) {
                Files.copy(jar, clientDir.resolve(jar.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        gateway = LocalSqlGateway.start(cluster, gatewayJar(), clientDir);
    }

    @AfterAll
    static void stopGateway() {
        if (gateway != null) {
            gateway.close();
        }
    }

    @Test
    void maintainsAViewOverKafkaEqualToFlinkSqlAndResumesItFromASavepoint() throws Exception {
        KAFKA.kafka().createTopic("e2e_orders", 2);
        KAFKA.kafka().createTopic("e2e_customers", 1);
        KAFKA.kafka().createTopic("e2e_revenue", 1);
        ClusterJobs jobs = new ClusterJobs(CLUSTER.cluster().rest());
        try (SqlGatewaySession s = new SqlGatewaySession(gateway.rest())) {
            prepare(s, "e2e_");
            s.execute("SET 'table.dml-sync' = 'true'").values();
            s.execute(insertCustomers(1, 8, 1)).values();
            s.execute(insertOrders(100, 40)).values();

            String job = maintain(s);
            jobs.awaitAllTasksRunning(job, Duration.ofMinutes(2));
            assertThat(vertexNames(job)).anySatisfy(n -> assertThat(n).contains("ingest"));
            assertThat(awaitSinkEqualsFlinkSql(s)).as("result rows").hasSize(3);

            String savepoint =
                    s.execute("STOP JOB '" + job + "' WITH SAVEPOINT").single();
            jobs.awaitState(job, Set.of("FINISHED"), Duration.ofMinutes(1));
            assertThat(savepoint).contains("savepoint-");

            // More rows while no job runs: new orders, customers who move region, a new customer, one deleted.
            s.execute(insertCustomers(2, 9, 2)).values();
            s.execute(insertOrders(140, 30)).values();
            KAFKA.kafka()
                    .produce(
                            "e2e_customers",
                            0,
                            List.of("{\"id\":7}".getBytes(StandardCharsets.UTF_8)),
                            java.util.Collections.singletonList(null));

            s.execute("SET 'execution.savepoint.path' = '" + savepoint + "'").values();
            String resumed = maintain(s);
            s.execute("RESET 'execution.savepoint.path'").values();
            jobs.awaitAllTasksRunning(resumed, Duration.ofMinutes(2));
            JsonNode restored = CLUSTER.cluster()
                    .rest()
                    .get("/jobs/" + resumed + "/checkpoints")
                    .path("latest")
                    .path("restored");
            assertThat(restored.path("external_path").asText())
                    .as("the savepoint the resumed job restored")
                    .isEqualTo(savepoint);
            Map<List<String>, Integer> afterRestore = awaitSinkEqualsFlinkSql(s);

            // More rows while the resumed job runs.
            s.execute(insertOrders(170, 20)).values();
            assertThat(awaitSinkEqualsFlinkSql(s)).isNotEqualTo(afterRestore);
            s.execute("STOP JOB '" + resumed + "'").values();
            jobs.awaitState(resumed, Set.of("FINISHED", "CANCELED"), Duration.ofMinutes(1));
        }
    }

    @Test
    void refusedQueriesUnknownTablesAndOptionsGiveTheirMessagesThroughTheClient() throws Exception {
        try (SqlGatewaySession s = new SqlGatewaySession(gateway.rest())) {
            prepare(s, "errors_");
            s.execute("CREATE TABLE default_catalog.default_database.elsewhere (id BIGINT)"
                            + " WITH ('connector' = 'datagen')")
                    .values();
            String refused = "SELECT o.id FROM orders o JOIN customers c ON o.customer_id < c.id";

            String fromExplain = s.execute("CALL ivm.sys.explain_view(query => '" + refused + "')")
                    .error();
            String fromMaintain = s.execute("CALL ivm.sys.maintain_view(query => '" + refused + "', sink => 'revenue')")
                    .error();
            assertThat(fromExplain)
                    .isEqualTo(fromMaintain)
                    .isEqualTo(UnsupportedPlanException.class.getName() + ": " + flinkIvmSqlRefuses(refused))
                    .contains("the condition o.customer_id < c.id across the tables o and c at line 1, column 47 is not"
                            + " supported");

            assertThat(s.execute("CALL ivm.sys.maintain_view(query => 'SELECT e.id FROM elsewhere e',"
                                    + " sink => 'revenue')")
                            .error())
                    .isEqualTo("io.flinkivm.core.query.InvalidQueryException: unknown table elsewhere at line 1,"
                            + " column 18; catalog ivm's procedures read the tables of ivm only, by default from its"
                            + " database default (customers, orders, revenue); the session's other catalogs and"
                            + " temporary tables are not visible to them");
            assertThat(s.execute("CALL ivm.sys.maintain_view(query => '" + QUERY + "', sink => 'revenue',"
                                    + " options => 'snapshot-evry = 3')")
                            .error())
                    .startsWith("org.apache.flink.table.api.ValidationException: options: unknown option"
                            + " snapshot-evry; the options are name=value pairs separated by commas, the names ")
                    .endsWith(String.join(", ", ViewOptions.KNOWN));
            s.execute("CREATE TABLE appends (region STRING, order_count BIGINT, revenue DECIMAL(38, 2)) WITH ("
                            + kafka("errors_appends") + ", 'format' = 'json')")
                    .values();
            assertThat(s.execute("CALL ivm.sys.maintain_view(query => '" + QUERY + "', sink => 'appends')")
                            .error())
                    .startsWith(
                            "org.apache.flink.table.api.TableException: Table sink 'ivm.default.appends' doesn't support"
                                    + " consuming update");
        }
    }

    @Test
    void theSessionOfDocsSqlClientRunsAsPrinted() throws Exception {
        String page = Files.readString(Path.of(property("flinkivm.docs"), "sql-client.md"), StandardCharsets.UTF_8);
        String session = block(page, "<!-- sql-client:session");
        String printed = block(page, "<!-- sql-client:result");
        Map<List<String>, Integer> result = table(printed);
        List<String> explain = block(page, "<!-- sql-client:explain").lines().toList();
        assertThat(session).contains(DOC_BROKER);
        Set<String> topics = new LinkedHashSet<>();
        Matcher m = TOPIC.matcher(session);
        while (m.find()) {
            topics.add(m.group(1));
        }
        assertThat(topics).hasSize(3);
        for (String topic : topics) {
            KAFKA.kafka().createTopic(topic, 1);
        }

        List<String> statements =
                statements(session.replace(DOC_BROKER, KAFKA.kafka().bootstrapServers()));
        assertThat(statements.get(0)).startsWith("ADD JAR");
        assertThat(statements.get(statements.size() - 1)).startsWith("SELECT");
        String job = null;
        try (SqlGatewaySession s = new SqlGatewaySession(gateway.rest())) {
            for (String statement : statements) {
                if (statement.startsWith("SELECT")) {
                    SqlGatewaySession.Outcome o =
                            s.watch(statement, table -> values(table).equals(result));
                    assertThat(o.columns()).isEqualTo(header(printed));
                } else {
                    SqlGatewaySession.Outcome o = s.execute(statement);
                    assertThat(o.error()).as(statement).isNull();
                    if (statement.startsWith("CALL ivm.sys.explain_view")) {
                        List<String> lines = o.values().stream()
                                .map(r -> SqlGatewaySession.unquote(r.get(0)))
                                .toList();
                        assertThat(String.join("\n", lines)).contains(explain);
                    } else if (statement.startsWith("CALL ivm.sys.maintain_view")) {
                        assertThat(o.columns()).containsExactly("job_id");
                        job = o.single();
                    }
                }
            }
            assertThat(job).matches("[0-9a-f]{32}");
            s.execute("STOP JOB '" + job + "'").values();
        }
    }

    /** The catalog and the three tables of {@link #QUERY}, over the topics {@code prefix + name}. */
    private static void prepare(SqlGatewaySession s, String prefix) throws Exception {
        for (String statement : List.of(
                "ADD JAR 'flink-ivm-sql-" + version() + "-bundle.jar'",
                "ADD JAR '" + kafkaConnectorJar() + "'",
                "CREATE CATALOG ivm WITH ('type' = 'flink-ivm')",
                "USE CATALOG ivm",
                "CREATE TABLE orders (id BIGINT, customer_id BIGINT, amount DECIMAL(10, 2)) WITH ("
                        + kafka(prefix + "orders") + ", 'scan.startup.mode' = 'earliest-offset', 'format' = 'json')",
                "CREATE TABLE customers (id BIGINT, region STRING NOT NULL, PRIMARY KEY (id) NOT ENFORCED) WITH ("
                        + upsertKafka(prefix + "customers") + ")",
                "CREATE TABLE revenue (region STRING NOT NULL, order_count BIGINT, revenue DECIMAL(38, 2),"
                        + " PRIMARY KEY (region) NOT ENFORCED) WITH (" + upsertKafka(prefix + "revenue") + ")")) {
            SqlGatewaySession.Outcome o = s.execute(statement);
            assertThat(o.error()).as(statement).isNull();
        }
    }

    private static String kafka(String topic) {
        return "'connector' = 'kafka', 'topic' = '" + topic + "', 'properties.bootstrap.servers' = '"
                + KAFKA.kafka().bootstrapServers() + "'";
    }

    private static String upsertKafka(String topic) {
        return kafka(topic).replace("'kafka'", "'upsert-kafka'") + ", 'key.format' = 'json', 'value.format' = 'json'";
    }

    /** Customers {@code from} to {@code to}, customer c in region number c * shift mod 3. */
    private static String insertCustomers(int from, int to, int shift) {
        List<String> rows = new ArrayList<>();
        String[] regions = {"EMEA", "APAC", "AMER"};
        for (int c = from; c <= to; c++) {
            rows.add("(" + c + ", '" + regions[(c * shift) % 3] + "')");
        }
        return "INSERT INTO customers VALUES " + String.join(", ", rows);
    }

    /** {@code n} orders from id {@code from}, of customers 1 to 9 (customer 9 exists in the second phase only). */
    private static String insertOrders(int from, int n) {
        List<String> rows = new ArrayList<>();
        for (int i = from; i < from + n; i++) {
            rows.add(
                    "(" + i + ", " + (1 + i % 9) + ", " + (i % 17) + "." + (i % 4 * 25 == 0 ? "00" : i % 4 * 25) + ")");
        }
        return "INSERT INTO orders VALUES " + String.join(", ", rows);
    }

    /** {@code CALL maintain_view} of {@link #QUERY} into {@code revenue}; returns the job's id. */
    private static String maintain(SqlGatewaySession s) throws Exception {
        SqlGatewaySession.Outcome o = s.execute("CALL ivm.sys.maintain_view(query => '" + QUERY
                + "', sink => 'revenue', options => 'parallelism = 2, snapshot-period = 300 ms')");
        assertThat(o.columns()).containsExactly("job_id");
        String job = o.single();
        assertThat(job).matches("[0-9a-f]{32}");
        return job;
    }

    /**
     * Reads the sink's topic back as a table (a bounded query of the sink) until it equals Flink SQL's result for the
     * same query over the same topics, and returns it.
     */
    private static Map<List<String>, Integer> awaitSinkEqualsFlinkSql(SqlGatewaySession s) throws Exception {
        Map<List<String>, Integer> expected =
                SqlGatewaySession.materialize(s.execute(FLINK_SQL).rows());
        assertThat(expected).isNotEmpty();
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        Map<List<String>, Integer> sink;
        do {
            sink = SqlGatewaySession.materialize(
                    s.execute("SELECT * FROM revenue" + BOUNDED).rows());
            if (sink.equals(expected)) {
                return sink;
            }
            Thread.sleep(500);
        } while (System.nanoTime() < deadline);
        assertThat(sink).as("the sink topic read back as a table").isEqualTo(expected);
        return sink;
    }

    private static List<String> vertexNames(String job) throws IOException {
        List<String> out = new ArrayList<>();
        for (JsonNode v : CLUSTER.cluster().rest().get("/jobs/" + job).path("vertices")) {
            out.add(v.path("name").asText());
        }
        return out;
    }

    /** The message {@link FlinkIvmSql#sql} refuses {@code sql} with, over tables of the same schemas. */
    private static String flinkIvmSqlRefuses(String sql) {
        StreamTableEnvironment tEnv =
                StreamTableEnvironment.create(StreamExecutionEnvironment.getExecutionEnvironment());
        tEnv.executeSql("CREATE TABLE orders (id BIGINT, customer_id BIGINT, amount DECIMAL(10, 2))"
                + " WITH ('connector' = 'datagen')");
        tEnv.executeSql("CREATE TABLE customers (id BIGINT NOT NULL, region STRING NOT NULL, PRIMARY KEY (id) NOT"
                + " ENFORCED) WITH ('connector' = 'datagen')");
        Throwable[] thrown = new Throwable[1];
        assertThatThrownBy(() -> FlinkIvmSql.sql(tEnv, sql, IvmOptions.defaults()))
                .isInstanceOf(UnsupportedPlanException.class)
                .satisfies(t -> thrown[0] = t);
        return thrown[0].getMessage();
    }

    /** The fenced block after the line that starts with {@code marker}. */
    static String block(String page, String marker) {
        int at = page.indexOf("\n" + marker);
        assertThat(at).as("docs/sql-client.md has a block marked %s", marker).isNotNegative();
        int open = page.indexOf("```", at);
        int start = page.indexOf('\n', open) + 1;
        return page.substring(start, page.indexOf("\n```", start) + 1);
    }

    /** The statements of a session as the SQL Client splits them: at a {@code ;} that ends a line. */
    static List<String> statements(String session) {
        List<String> out = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : session.lines().toList()) {
            if (line.isBlank() && current.length() == 0) {
                continue;
            }
            current.append(current.length() == 0 ? "" : "\n").append(line);
            if (line.stripTrailing().endsWith(";")) {
                String s = current.toString().strip();
                out.add(s.substring(0, s.length() - 1));
                current.setLength(0);
            }
        }
        assertThat(current.toString()).as("text after the last statement").isBlank();
        return out;
    }

    /** A table as the SQL Client prints it ({@code | a | b |} rows between {@code +---+} lines), as a multiset. */
    static Map<List<String>, Integer> table(String printed) {
        Map<List<String>, Integer> out = new HashMap<>();
        List<String> rows = printed.lines().filter(l -> l.startsWith("|")).toList();
        for (String row : rows.subList(1, rows.size())) {
            List<String> fields = new ArrayList<>();
            for (String f : row.substring(1, row.length() - 1).split("\\|")) {
                fields.add(value(f.strip()));
            }
            out.merge(fields, 1, Integer::sum);
        }
        return out;
    }

    /** The column names of a table as the SQL Client prints it. */
    static List<String> header(String printed) {
        String first =
                printed.lines().filter(l -> l.startsWith("|")).findFirst().orElseThrow();
        List<String> out = new ArrayList<>();
        for (String f : first.substring(1, first.length() - 1).split("\\|")) {
            out.add(f.strip());
        }
        return out;
    }

    /** A table of JSON fields as {@link #table} reads a printed one: each field by {@link #value}. */
    private static Map<List<String>, Integer> values(Map<List<String>, Integer> table) {
        Map<List<String>, Integer> out = new HashMap<>();
        table.forEach((row, n) -> out.put(row.stream().map(SqlClientIT::value).toList(), n));
        return out;
    }

    /**
     * A field, printed or as JSON, by its value: text unquoted, a number without trailing zeros (the client prints
     * a DECIMAL(38, 2) with its scale, 40.50; the gateway's JSON need not keep it).
     */
    static String value(String field) {
        String text = SqlGatewaySession.unquote(field);
        try {
            return new BigDecimal(text).stripTrailingZeros().toPlainString();
        } catch (NumberFormatException e) {
            return text;
        }
    }

    /** The SQL Gateway's jar among those the build resolved for this module. */
    private static Path gatewayJar() throws IOException {
        String cp = Files.readString(Path.of(property("flinkivm.clusterClasspath")), StandardCharsets.UTF_8);
        for (String entry : cp.trim().split(File.pathSeparator)) {
            if (Path.of(entry).getFileName().toString().startsWith("flink-sql-gateway-")) {
                return Path.of(entry);
            }
        }
        throw new IllegalStateException("no flink-sql-gateway jar in " + property("flinkivm.clusterClasspath"));
    }

    private static String kafkaConnectorJar() throws IOException {
        try (Stream<Path> jars = Files.list(Path.of(property("flinkivm.sqlClientJars")))) {
            return jars.map(p -> p.getFileName().toString())
                    .filter(n -> n.startsWith("flink-sql-connector-kafka-"))
                    .findFirst()
                    .orElseThrow();
        }
    }

    private static String version() {
        String name = Path.of(property("flinkivm.sqlBundle")).getFileName().toString();
        return name.substring("flink-ivm-sql-".length(), name.length() - "-bundle.jar".length());
    }

    private static String property(String key) {
        String value = System.getProperty(key);
        if (value == null) {
            throw new IllegalStateException("system property " + key + " is not set: run the test through Maven"
                    + " (mvn -B verify, failsafe sets it; see flink-ivm-bench/pom.xml)");
        }
        return value;
    }
}
