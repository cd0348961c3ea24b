package io.flinkivm.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.examples.testing.CliRun;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code explain --sql} and {@code run --sql} with expressions that flink-ivm leaves to Flink: explain shows the
 * projection the table is read through, {@code --engine flink} computes them with an embedded Flink, and {@code
 * --engine memory} refuses them, naming each function and the engine that takes them.
 */
class SqlRowFunctionsCommandsTest {
    static final String SCHEMA = "bid(auction BIGINT, bidder BIGINT, price BIGINT, dt TIMESTAMP(3), extra STRING)";
    static final String SQL = "SELECT DATE_FORMAT(dt, 'yyyy-MM-dd') AS d, COUNT(*) AS n,"
            + " MAX(JSON_VALUE(extra, '$.kind')) AS k FROM bid"
            + " WHERE CONCAT(CAST(bidder AS STRING), '-', 'x') <> '11-x' GROUP BY DATE_FORMAT(dt, 'yyyy-MM-dd')";

    static final String ROWS = String.join(
                    "\n",
                    "bid,1,10,25,2024-05-01 10:15:00,\"{\"\"kind\"\": \"\"ask\"\"}\"",
                    "bid,1,11,75,2024-05-01 11:15:00,\"{\"\"kind\"\": \"\"bid\"\"}\"",
                    "bid,2,10,35,2024-05-02 09:00:00,\"{\"\"kind\"\": \"\"bid\"\"}\"",
                    "bid,2,12,\\N,2024-05-02 09:30:00,not json",
                    "bid,3,12,5,\\N,\"{\"\"kind\"\": \"\"ask\"\"}\"",
                    "bid,3,12,5,yesterday,{}")
            + "\n";

    @TempDir
    Path dir;

    @Test
    void explainShowsTheProjectionEachTableIsReadThrough() {
        CliRun r = CliRun.of("explain", "--sql", SQL, "--schema", SCHEMA);
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out())
                .contains("query:    Q(V) :- bid(V)")
                .contains("bid: columns ivm$0, ivm$1, ivm$2\n")
                .contains("ivm$0 = CONCAT(CAST(`bidder` AS STRING), '-', 'x') STRING, computed by Flink (CONCAT)")
                .contains("ivm$1 = DATE_FORMAT(`dt`, 'yyyy-MM-dd') STRING, computed by Flink (DATE_FORMAT)")
                .contains("ivm$2 = JSON_VALUE(`extra`, '$.kind') STRING, computed by Flink (JSON_VALUE)")
                .contains("read through Flink's projection: SELECT CONCAT(CAST(`bidder` AS STRING), '-', 'x') AS"
                        + " `ivm$0`, DATE_FORMAT(`dt`, 'yyyy-MM-dd') AS `ivm$1`, JSON_VALUE(`extra`, '$.kind') AS"
                        + " `ivm$2` FROM `bid`")
                .contains("where ivm$0 <> '11-x'".replace("ivm$0", "CONCAT(CAST(`bidder` AS STRING), '-', 'x')"));
    }

    @Test
    void theFlinkEngineComputesThemWithFlink() throws IOException {
        Path in = Files.writeString(dir.resolve("in.csv"), ROWS, StandardCharsets.UTF_8);
        Path out = dir.resolve("out.csv");
        CliRun r = CliRun.of(
                "run", "--sql", SQL, "--schema", SCHEMA, "--input", in.toString(), "--output", out.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        // Bidder 11 is filtered out; a NULL time is a group of its own; JSON_VALUE of text that is no JSON is NULL.
        assertThat(Files.readAllLines(out, StandardCharsets.UTF_8))
                .containsExactlyInAnyOrder("d,n,k", "2024-05-01,1,ask", "2024-05-02,2,bid", "\\N,1,ask");
        assertThat(r.err()).contains("line 6: column dt of bid: 'yesterday' is not a TIMESTAMP(3) value");
        assertThat(r.out()).contains("inserts: 5, rejected: 1");
    }

    @Test
    void theMemoryEngineNamesEachFunctionAndTheEngineThatTakesThem() throws IOException {
        Path in = Files.writeString(dir.resolve("in.csv"), ROWS, StandardCharsets.UTF_8);
        CliRun r = CliRun.of(
                "run",
                "--sql",
                SQL,
                "--schema",
                SCHEMA,
                "--input",
                in.toString(),
                "--output",
                dir.resolve("out.csv").toString(),
                "--engine",
                "memory");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err())
                .contains("--engine memory evaluates rows with flink-ivm's own functions, and CONCAT (in"
                        + " CONCAT(CAST(`bidder` AS STRING), '-', 'x') of table bid), DATE_FORMAT (in DATE_FORMAT(`dt`,"
                        + " 'yyyy-MM-dd') of table bid), JSON_VALUE (in JSON_VALUE(`extra`, '$.kind') of table bid) are"
                        + " not among them: Flink computes them in the table's projection (explain --sql shows it);"
                        + " --engine flink, the default, takes this query");
        assertThat(Files.exists(dir.resolve("out.csv"))).isFalse();
    }

    @Test
    void anExpressionFlinkDoesNotTakeEndsWithFlinksReason() {
        CliRun r = CliRun.of("explain", "--sql", "SELECT DATE_FORMAT(price) AS d FROM bid", "--schema", SCHEMA);
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err())
                .contains("invalid SQL: flink-ivm leaves DATE_FORMAT(price) to Flink, which does not take it: Invalid"
                        + " number of arguments to function 'DATE_FORMAT'. Was expecting 2 arguments; at line 1,"
                        + " column 8");
    }
}
