package io.flinkivm.examples.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.examples.testing.CliRun;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The {@code kafka} command's help and its refusals of bad options; none of these reaches Kafka. */
class KafkaCommandTest {

    static final String QUERY = "Q(A,C) :- R1(A,B), R2(B,C)";

    @Test
    void helpDocumentsOptionsDefaultsAndFormats() {
        CliRun r = CliRun.of("kafka", "--help");

        assertThat(r.exitCode()).isZero();
        // Picocli wraps the option descriptions: compare with the line breaks taken out.
        assertThat(r.out().replaceAll("\\s+", " "))
                .contains(
                        "Usage: flink-ivm kafka",
                        "--query",
                        "--semiring",
                        "--kafka-bootstrap",
                        "--input-topic",
                        "--relation-topic=RELATION=TOPIC",
                        "--format",
                        "--output-topic",
                        "--dead-letter-topic",
                        "--snapshot-every",
                        "--checkpoint-interval",
                        "--checkpoint-dir",
                        "--delivery",
                        "--bounded",
                        "--group-id",
                        "--parallelism",
                        "--state",
                        "--restart-attempts",
                        "Default: ivm-inserts",
                        "Default: ivm-results",
                        "Default: ivm-dead-letters",
                        "Default: csv",
                        "Default: exactly-once",
                        "Default: 1 s",
                        "Default: flink-ivm",
                        "relation,value1,...,valueK[,payload]",
                        "#snapshot",
                        "{\"control\":\"snapshot\"}",
                        "--columns=RELATION=COL,...",
                        "debezium-json",
                        "op u: -U before, then +U after",
                        "upsert-json",
                        "topic-partition@offset",
                        "isolation.level=read_committed",
                        "Exit codes:");
        assertThat(r.out().lines())
                .allSatisfy(line -> assertThat(line.length()).as(line).isLessThanOrEqualTo(80));
    }

    @Test
    void kafkaIsListedAmongTheCommands() {
        assertThat(CliRun.of("--help").out()).contains("kafka");
    }

    static CliRun run(String... extra) {
        List<String> args = new ArrayList<>(List.of("kafka", "--kafka-bootstrap", "127.0.0.1:1"));
        if (!List.of(extra).contains("--semiring")) {
            args.addAll(List.of("--semiring", "natural"));
        }
        if (!List.of(extra).contains("--query")) {
            args.addAll(List.of("--query", QUERY));
        }
        args.addAll(List.of(extra));
        return CliRun.of(args.toArray(new String[0]));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "--input-topic in --relation-topic R1=t1 --relation-topic R2=t2 | --input-topic and --relation-topic exclude each other",
                "--relation-topic R1=t1 --relation-topic R9=t9                   | the query has no relation R9; it uses R1, R2",
                "--relation-topic R1=t1                                          | no --relation-topic for relation R2 of the query",
                "--relation-topic R1=t --relation-topic R2=t                     | gives topic t to both R1 and R2",
                "--relation-topic R1=t1 --relation-topic R1=t2                   | names relation R1 twice",
                "--relation-topic R1                                             | --relation-topic expects RELATION=TOPIC, got 'R1'",
                "--format xml                                                    | unknown value 'xml'; expected one of: csv, json",
                "--delivery twice                                                | expected one of: exactly-once, at-least-once",
                "--state disk                                                    | expected one of: heap, rocksdb",
                "--checkpoint-interval 0                                         | needs --checkpoint-interval > 0",
                "--checkpoint-interval -5 --delivery at-least-once               | --checkpoint-interval': the duration must not be negative",
                "--output-topic x --dead-letter-topic x                          | give them different topics",
                "--input-topic x --output-topic x                                | topic 'x' is both an input and an output topic",
                "--parallelism 0                                                 | --parallelism': the parallelism must be at least 1",
                "--checkpoint-interval 0 --delivery at-least-once --checkpoint-dir /tmp/c | --checkpoint-interval 0 turns them off",
                "--snapshot-every -1                                             | --snapshot-every must be >= 0",
                "--restart-attempts -1                                           | --restart-attempts must be >= 0",
                "--query Q(A):-R(A                                               | invalid query",
                "--columns R1=a,b                                                | --columns names the columns of change events' rows and goes with --format debezium-json",
                "--format debezium-json --semiring integer --columns R1=a          | relation R1 has arity 2 in the query; name 2 columns",
                "--format debezium-json --semiring integer --columns R9=a          | the query has no relation R9",
                "--format debezium-json --semiring integer --columns R1          | --columns expects RELATION=COLUMN,..., got 'R1'",
                "--format debezium-json --semiring integer --columns R1=a,b:DATE   | --columns R1=a,b:DATE: unknown column type 'DATE'; the types are STRING, BIGINT and DECIMAL(p, s)",
                "--format debezium-json --semiring integer --columns R1=a,b --columns R1=c,d         | --columns names relation R1 twice",
                "--format debezium-json                                          | R1, R2 receive deletes and updates, which need a ring",
                "--format upsert-json --semiring integer                         | --format upsert-json reads one upsert topic per relation",
                "--format upsert-json                                            | R1, R2 receive deletes and updates, which need a ring",
            })
    void refusesBadOptionsWithExitCode2(String options, String message) {
        CliRun r = run(options.trim().split("\\s+"));

        assertThat(r.exitCode()).as(r.err()).isEqualTo(2);
        assertThat(r.err()).contains(message, "Try 'flink-ivm kafka --help'");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void unknownSemiringAndMissingBootstrapAreUsageErrors() {
        CliRun semiring = CliRun.of("kafka", "--query", QUERY, "--semiring", "reals", "--kafka-bootstrap", "h:1");
        assertThat(semiring.exitCode()).isEqualTo(2);
        assertThat(semiring.err()).contains("unknown semiring 'reals'");

        CliRun bootstrap = CliRun.of("kafka", "--query", QUERY, "--semiring", "natural");
        assertThat(bootstrap.exitCode()).isEqualTo(2);
        assertThat(bootstrap.err()).contains("Missing required option: '--kafka-bootstrap=HOST:PORT'");

        CliRun query = CliRun.of("kafka", "--semiring", "natural", "--kafka-bootstrap", "h:1");
        assertThat(query.exitCode()).isEqualTo(2);
        assertThat(query.err()).contains("Missing required option: '--query=QUERY'", "Try 'flink-ivm kafka --help'");

        CliRun group = run("--group-id", " ");
        assertThat(group.exitCode()).isEqualTo(2);
        assertThat(group.err()).contains("--group-id must not be empty");
    }
}
