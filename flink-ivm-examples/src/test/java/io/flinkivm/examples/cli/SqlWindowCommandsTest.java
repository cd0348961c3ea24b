package io.flinkivm.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.examples.testing.CliRun;
import org.junit.jupiter.api.Test;

/** {@code explain --sql} over window table functions, with the event-time attribute in {@code --schema}. */
class SqlWindowCommandsTest {
    static final String SCHEMA = "bid(auction BIGINT, price BIGINT, dateTime TIMESTAMP(3),"
            + " WATERMARK FOR dateTime AS dateTime - INTERVAL '5' SECOND); person(id BIGINT, name STRING)";

    @Test
    void explainSaysWhichViewsAreKeyedByTheWindow() {
        CliRun r = CliRun.of(
                "explain",
                "--sql",
                "SELECT p.name, b.window_start, b.window_end, SUM(b.price) AS total"
                        + " FROM TABLE(HOP(TABLE bid, DESCRIPTOR(`dateTime`), INTERVAL '5' SECOND, INTERVAL '10' SECOND)) b"
                        + " JOIN person p ON p.id = b.auction GROUP BY p.name, b.window_start, b.window_end",
                "--schema",
                SCHEMA);
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out())
                .contains(
                        "Windows:\n  bid: HOP(slide 5 s, size 10 s) on column 1; window_start, window_end are"
                                + " columns 2, 3; one insert per window, 2 per row\n",
                        "relation bid(auction,_1,window_start,window_end): keyed by window (window_start), but kept: its"
                                + " operator's key holds no window",
                        "not keyed by a window, grows with its tables",
                        "closed windows: no operator is keyed by a window, so every view grows with its tables");
    }

    @Test
    void runRefusesWindowsBecauseItsFileHasNoWatermarks() {
        CliRun r = CliRun.of(
                "run",
                "--sql",
                "SELECT window_start, COUNT(*) AS n FROM TABLE(TUMBLE(TABLE bid, DESCRIPTOR(`dateTime`),"
                        + " INTERVAL '10' SECOND)) GROUP BY window_start",
                "--schema",
                SCHEMA,
                "--input",
                "rows.csv",
                "--output",
                "out.csv");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("which need event-time watermarks, and run reads a file without them");
    }

    @Test
    void aWindowOverATableWithoutWatermarkExitsWith2() {
        CliRun r = CliRun.of(
                "explain",
                "--sql",
                "SELECT window_start, COUNT(*) AS n FROM TABLE(TUMBLE(TABLE person, DESCRIPTOR(id),"
                        + " INTERVAL '10' SECOND)) GROUP BY window_start",
                "--schema",
                SCHEMA);
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("TUMBLE over person needs its event-time attribute: declare WATERMARK FOR id");
    }
}
