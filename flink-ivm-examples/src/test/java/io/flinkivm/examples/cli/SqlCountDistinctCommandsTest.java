package io.flinkivm.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.examples.testing.CliRun;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code explain --sql} and {@code run --sql --engine memory} with COUNT(DISTINCT ...): the argument in the
 * head and the fold named, and one row per group in the final result, in snapshots and in a changelog,
 * insert-only and with deletes; the Flink engine of this command refuses it with the way round.
 */
class SqlCountDistinctCommandsTest {
    static final String SCHEMA = "bid(auction BIGINT, bidder BIGINT, price BIGINT, dt STRING)";
    static final String SQL = "SELECT dt, COUNT(*) AS n, COUNT(DISTINCT bidder) AS bidders,"
            + " COUNT(DISTINCT bidder) FILTER (WHERE price < 100) AS cheap_bidders,"
            + " COUNT(DISTINCT auction) AS auctions FROM bid GROUP BY dt";

    static final String ROWS = String.join(
                    "\n", "bid,1,10,50,d1", "bid,1,10,500,d1", "bid,2,11,500,d1", "bid,3,\\N,20,d2", "bid,3,12,20,d2")
            + "\n";

    @TempDir
    Path dir;

    @Test
    void explainNamesTheFold() {
        CliRun r = CliRun.of("explain", "--sql", SQL, "--schema", SCHEMA);
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out())
                .contains("Q(dt,bidder,auction)")
                .contains("bidders BIGINT = the number of non-NULL bidder with c1 > 0 in the group")
                .contains("distinct: COUNT(DISTINCT ...) joins bidder, auction to the head")
                .contains("with a count of tuples per (group, value)");
    }

    @Test
    void theFinalResultHasOneRowPerGroup() throws IOException {
        assertThat(run(ROWS))
                .containsExactlyInAnyOrder("dt,n,bidders,cheap_bidders,auctions", "d1,3,2,1,2", "d2,2,1,1,1");
    }

    @Test
    void aDeleteOfAPairsLastRowTakesItsValueAway() throws IOException {
        assertThat(run(ROWS + "-D,bid,1,10,50,d1\n-D,bid,3,12,20,d2\n"))
                .containsExactlyInAnyOrder("dt,n,bidders,cheap_bidders,auctions", "d1,2,2,0,2", "d2,1,0,0,1");
    }

    @Test
    void aChangelogHasOneChangePerGroupAndTrigger() throws IOException {
        assertThat(run(
                        ROWS + "-D,bid,1,10,50,d1\n",
                        "--output-mode",
                        "changelog",
                        "--snapshot-every",
                        "3",
                        "--update-before"))
                .containsExactly(
                        "trigger,kind,dt,n,bidders,cheap_bidders,auctions",
                        "1,+I,d1,3,2,1,2",
                        "2,+I,d2,2,1,1,1",
                        "2,-U,d1,3,2,1,2",
                        "2,+U,d1,2,2,0,2");
    }

    @Test
    void snapshotsFoldEachTriggersResult() throws IOException {
        assertThat(run(ROWS, "--snapshot-every", "2"))
                .containsExactlyInAnyOrder(
                        "trigger,dt,n,bidders,cheap_bidders,auctions",
                        "1,d1,2,1,1,1",
                        "2,d1,3,2,1,2",
                        "2,d2,1,0,0,1",
                        "3,d1,3,2,1,2",
                        "3,d2,2,1,1,1");
    }

    @Test
    void theFlinkEngineOfThisCommandSaysWhereItRuns() throws IOException {
        Path in = Files.writeString(dir.resolve("in.csv"), ROWS, StandardCharsets.UTF_8);
        CliRun r = CliRun.of("run", "--sql", SQL, "--schema", SCHEMA, "--input", in.toString(), "--output", "out.csv");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("COUNT(DISTINCT ...) runs on --engine memory in this command");
    }

    private List<String> run(String lines, String... options) throws IOException {
        Path in = Files.writeString(dir.resolve("in.csv"), lines, StandardCharsets.UTF_8);
        Path out = dir.resolve("out.csv");
        List<String> args = new ArrayList<>(List.of(
                "run",
                "--sql",
                SQL,
                "--schema",
                SCHEMA,
                "--input",
                in.toString(),
                "--output",
                out.toString(),
                "--engine",
                "memory"));
        args.addAll(List.of(options));
        CliRun r = CliRun.of(args.toArray(new String[0]));
        assertThat(r.exitCode()).as(r.err()).isZero();
        return Files.readAllLines(out, StandardCharsets.UTF_8);
    }
}
