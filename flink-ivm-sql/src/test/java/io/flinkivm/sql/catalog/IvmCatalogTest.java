package io.flinkivm.sql.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.core.plan.UnsupportedPlanException;
import io.flinkivm.core.query.InvalidQueryException;
import io.flinkivm.flink.IvmOptions;
import io.flinkivm.sql.FlinkIvmSql;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamNode;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The catalog's {@code sys} database and its procedures, called from a session as the SQL Client would. */
class IvmCatalogTest {

    static final String ORDERS = "CREATE TABLE orders (id BIGINT, customer_id BIGINT, amount DECIMAL(10, 2))"
            + " WITH ('connector' = 'datagen')";
    static final String CUSTOMERS = "CREATE TABLE customers (id BIGINT NOT NULL, region STRING NOT NULL,"
            + " PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = 'datagen')";
    static final String REVENUE = "CREATE TABLE revenue (region STRING NOT NULL, order_count BIGINT,"
            + " revenue DECIMAL(38, 2), PRIMARY KEY (region) NOT ENFORCED) WITH ('connector' = 'blackhole')";
    static final String QUERY = "SELECT c.region, COUNT(*) AS order_count, SUM(o.amount) AS revenue"
            + " FROM orders o JOIN customers c ON o.customer_id = c.id GROUP BY c.region";
    static final String REFUSED = "SELECT o.id FROM orders o JOIN customers c ON o.customer_id < c.id";

    private StreamTableEnvironment tEnv;
    private IvmCatalog ivm;

    @BeforeEach
    void session() {
        tEnv = StreamTableEnvironment.create(StreamExecutionEnvironment.getExecutionEnvironment());
        tEnv.executeSql("CREATE CATALOG ivm WITH ('type' = 'flink-ivm')");
        tEnv.executeSql("USE CATALOG ivm");
        tEnv.executeSql(ORDERS);
        tEnv.executeSql(CUSTOMERS);
        tEnv.executeSql(REVENUE);
        ivm = (IvmCatalog) tEnv.getCatalog("ivm").orElseThrow();
    }

    @Test
    void theSysDatabaseHoldsTheProceduresOnly() throws Exception {
        assertThat(rows("SHOW PROCEDURES FROM ivm.sys")).containsExactlyInAnyOrder("explain_view", "maintain_view");
        assertThat(rows("SHOW DATABASES")).containsExactlyInAnyOrder("default", "sys");
        assertThat(ivm.getProcedure(new ObjectPath("sys", "maintain_view"))).isInstanceOf(MaintainViewProcedure.class);
        assertThat(ivm.listTables("sys")).isEmpty();
        assertThatThrownBy(() -> tEnv.executeSql("CREATE TABLE sys.t (id BIGINT) WITH ('connector' = 'datagen')"))
                .rootCause()
                .hasMessage("the database sys of catalog ivm holds flink-ivm's procedures only; create t in another"
                        + " database, e.g. default");
    }

    @Test
    void explainViewGivesWhatFlinkIvmSqlExplains() {
        List<String> lines = rows("CALL ivm.sys.explain_view(query => '" + QUERY + "')");

        assertThat(String.join("\n", lines)).isEqualTo(reference().explain().strip());
        assertThat(lines).contains("Flink job:");
    }

    @Test
    void aRefusedQueryAndAnUnknownTableAreTheStatementsErrors() {
        String refused = referenceRefuses(REFUSED);
        assertThatThrownBy(() -> rows("CALL ivm.sys.explain_view(query => '" + REFUSED + "')"))
                .rootCause()
                .isInstanceOf(UnsupportedPlanException.class)
                .hasMessage(refused);
        assertThatThrownBy(() -> rows("CALL ivm.sys.maintain_view(query => '" + REFUSED + "', sink => 'revenue')"))
                .rootCause()
                .isInstanceOf(UnsupportedPlanException.class)
                .hasMessage(refused);

        tEnv.executeSql("CREATE TEMPORARY TABLE elsewhere (id BIGINT) WITH ('connector' = 'datagen')");
        assertThatThrownBy(() -> rows("CALL ivm.sys.explain_view(query => 'SELECT e.id FROM elsewhere e')"))
                .rootCause()
                .isInstanceOf(InvalidQueryException.class)
                .hasMessage("unknown table elsewhere at line 1, column 18; catalog ivm's procedures read the tables of"
                        + " ivm only, by default from its database default (customers, orders, revenue); the"
                        + " session's other catalogs and temporary tables are not visible to them");
        assertThatThrownBy(() -> rows("CALL ivm.sys.explain_view(query => ' ')"))
                .rootCause()
                .isInstanceOf(InvalidQueryException.class)
                .hasMessage("the query is empty: give query => 'SELECT ...'");
        assertThatThrownBy(() -> rows("CALL ivm.sys.maintain_view(query => '" + QUERY + "', sink => ' ')"))
                .rootCause()
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("maintain_view needs sink => 'table', the table the view's changelog is written to");
        assertThatThrownBy(() -> rows("CALL ivm.sys.explain_view(query => '" + QUERY + "', options => 'x = 1')"))
                .rootCause()
                .isInstanceOf(ValidationException.class)
                .hasMessageStartingWith("options: unknown option x;");
    }

    @Test
    void theViewsOperatorsTakeTheirUidsFromTheSinksName() throws Exception {
        MaintainViewProcedure maintain =
                (MaintainViewProcedure) ivm.getProcedure(new ObjectPath("sys", IvmCatalog.MAINTAIN_VIEW));

        Set<String> uids = uids(maintain, "revenue", "parallelism = 2");
        assertThat(uids).isNotEmpty().allSatisfy(u -> assertThat(u).startsWith("view-ivm.default.revenue-"));
        assertThat(uids).anySatisfy(u -> assertThat(u).contains("ingest"));
        assertThat(uids(maintain, "revenue", "parallelism = 2"))
                .as("the same call, as after a savepoint")
                .isEqualTo(uids);
        assertThat(uids(maintain, "ivm.`default`.revenue", "parallelism = 2"))
                .as("the sink by its full name")
                .isEqualTo(uids);
        assertThat(uids(maintain, "revenue", "parallelism = 2, uid-prefix = v2-"))
                .isNotEmpty()
                .allSatisfy(u -> assertThat(u).startsWith("v2-"));
    }

    @Test
    void theJobIsNamedAfterTheViewAndCarriesTheSessionsStateBackend() throws Exception {
        MaintainViewProcedure maintain =
                (MaintainViewProcedure) ivm.getProcedure(new ObjectPath("sys", IvmCatalog.MAINTAIN_VIEW));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();

        assertThat(maintain.prepare(env, QUERY, "revenue", "state = rocksdb"))
                .isEqualTo("flink-ivm view ivm.default.revenue");
        assertThat(env.getConfiguration().toMap()).containsEntry("state.backend.type", "rocksdb");
        assertThat(env.getConfiguration().getOptional(PipelineOptions.JARS)).hasValue(List.of());
    }

    @Test
    void aJobCarriesTheJarsOfTheLibraryAndOfTheSession(@TempDir Path dir) throws IOException {
        Path jar = Files.createFile(dir.resolve("connector.jar"));
        Path classes = Files.createDirectory(dir.resolve("classes"));
        try (URLClassLoader session = new URLClassLoader(
                new URL[] {jar.toUri().toURL(), classes.toUri().toURL(), new URL("http://example.com/x.jar")},
                getClass().getClassLoader())) {
            assertThat(IvmCatalog.jarsOf(session, IvmCatalog.class))
                    .as("IvmCatalog comes from a directory here: only the session's jar file")
                    .containsExactly(jar.toFile().toURI().toString());
            assertThat(IvmCatalog.jarsOf(session, Test.class))
                    .first()
                    .asString()
                    .startsWith("file:")
                    .endsWith(".jar")
                    .contains("junit-jupiter-api");
        }
    }

    private Set<String> uids(MaintainViewProcedure maintain, String sink, String options) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        maintain.prepare(env, QUERY, sink, options);
        Set<String> out = new TreeSet<>();
        for (StreamNode n : env.getStreamGraph().getStreamNodes()) {
            if (n.getTransformationUID() != null) {
                out.add(n.getTransformationUID());
            }
        }
        return out;
    }

    private List<String> rows(String statement) {
        List<String> out = new ArrayList<>();
        try (CloseableIterator<Row> it = tEnv.executeSql(statement).collect()) {
            it.forEachRemaining(r -> out.add(String.valueOf(r.getField(0))));
        } catch (Exception e) {
            throw e instanceof RuntimeException r ? r : new IllegalStateException(e);
        }
        return out;
    }

    /** {@link FlinkIvmSql#sql} of {@link #QUERY} over the same tables in a plain session. */
    private static io.flinkivm.sql.SqlView reference() {
        return FlinkIvmSql.sql(plainSession(), QUERY, IvmOptions.defaults());
    }

    private static String referenceRefuses(String sql) {
        StreamTableEnvironment plain = plainSession();
        Throwable[] thrown = new Throwable[1];
        assertThatThrownBy(() -> FlinkIvmSql.sql(plain, sql, IvmOptions.defaults()))
                .isInstanceOf(UnsupportedPlanException.class)
                .satisfies(t -> thrown[0] = t);
        return thrown[0].getMessage();
    }

    private static StreamTableEnvironment plainSession() {
        StreamTableEnvironment plain =
                StreamTableEnvironment.create(StreamExecutionEnvironment.getExecutionEnvironment());
        plain.executeSql(ORDERS);
        plain.executeSql(CUSTOMERS);
        return plain;
    }
}
