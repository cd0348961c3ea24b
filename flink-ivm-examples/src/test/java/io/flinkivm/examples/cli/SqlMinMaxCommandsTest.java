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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code explain --sql} and {@code run --sql} with MIN and MAX of strings, dates and times: the chains in
 * the translation, and the rows on both engines, insert-only and with deletes.
 */
class SqlMinMaxCommandsTest {
    static final String SCHEMA = "product(id BIGINT, name STRING, PRIMARY KEY (id));"
            + " orders(id BIGINT, placed_on DATE, slot TIME, PRIMARY KEY (id));"
            + " shipment(id BIGINT, product_id BIGINT, order_id BIGINT, note STRING, PRIMARY KEY (id))";
    static final String SQL = "SELECT s.product_id, MIN(p.name) AS first_product, MIN(o.placed_on) AS first_day,"
            + " MAX(s.note) AS last_note, MIN(o.slot) AS first_slot, COUNT(*) AS n"
            + " FROM shipment s, orders o, product p WHERE p.id = s.product_id AND o.id = s.order_id"
            + " GROUP BY s.product_id";
    /** U+FF21 and U+2070E: by code point the second is the greater, by Java's String order the first. */
    static final String FULLWIDTH_A = "\uFF21";

    static final String BEYOND_FFFF = new String(Character.toChars(0x2070E));

    @TempDir
    Path dir;

    @Test
    void explainNamesTheChains() {
        CliRun r = CliRun.of("explain", "--sql", SQL, "--schema", SCHEMA);
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out())
                .contains("  semiring: product(natural,min over STRING,min over DATE,max over STRING,min over TIME(0))"
                        + " (MIN(p.name), MIN(o.placed_on), MAX(s.note), MIN(o.slot), COUNT(*))\n")
                .contains("result:   product_id BIGINT = product_id, first_product STRING = c1, NULL if top,"
                        + " first_day DATE = c2, NULL if top, last_note STRING = c3, NULL if bottom,"
                        + " first_slot TIME(0) = c4, NULL if top, n BIGINT = count");
        CliRun changelog = CliRun.of("explain", "--sql", SQL, "--schema", SCHEMA, "--changelog", "shipment");
        assertThat(changelog.exitCode()).as(changelog.err()).isZero();
        assertThat(changelog.out())
                .contains("planned:  product(integer,min-multiset over STRING,min-multiset over DATE,"
                        + "max-multiset over STRING,min-multiset over TIME(0))")
                .contains("MIN/MAX as multisets of values");
    }

    private List<String> run(String engine, String lines, String... options) throws IOException {
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
                engine));
        args.addAll(List.of(options));
        CliRun r = CliRun.of(args.toArray(new String[0]));
        assertThat(r.exitCode()).as(r.err()).isZero();
        return Files.readAllLines(out, StandardCharsets.UTF_8);
    }

    static final String ROWS = String.join(
                    "\n",
                    "product,1,widget",
                    "product,2," + FULLWIDTH_A,
                    "orders,10,2024-05-01,10:15:00",
                    "orders,11,2024-04-30,09:00",
                    "shipment,100,1,10,on time",
                    "shipment,101,1,11," + BEYOND_FFFF,
                    "shipment,102,2,10," + FULLWIDTH_A,
                    "shipment,103,2,11,\\N")
            + "\n";

    @ParameterizedTest
    @ValueSource(strings = {"memory", "flink"})
    void runKeepsEachTypesOrderAndSkipsNulls(String engine) throws IOException {
        assertThat(run(engine, ROWS))
                .containsExactlyInAnyOrder(
                        "product_id,first_product,first_day,last_note,first_slot,n",
                        "1,widget,2024-04-30," + BEYOND_FFFF + ",09:00:00,2",
                        "2," + FULLWIDTH_A + ",2024-04-30," + FULLWIDTH_A + ",09:00:00,2");
    }

    @ParameterizedTest
    @ValueSource(strings = {"memory", "flink"})
    void aDeleteFallsBackToTheNextValues(String engine) throws IOException {
        assertThat(run(engine, ROWS + "-D,shipment,101,1,11," + BEYOND_FFFF + "\n-D,shipment,103,2,11,\\N\n"))
                .containsExactlyInAnyOrder(
                        "product_id,first_product,first_day,last_note,first_slot,n",
                        "1,widget,2024-05-01,on time,10:15:00,1",
                        "2," + FULLWIDTH_A + ",2024-05-01," + FULLWIDTH_A + ",10:15:00,1");
    }
}
