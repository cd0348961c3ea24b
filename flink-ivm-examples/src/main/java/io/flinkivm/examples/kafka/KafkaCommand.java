package io.flinkivm.examples.kafka;

import io.flinkivm.core.plan.Inputs;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.examples.command.Converters;
import io.flinkivm.examples.command.FlinkOptions;
import io.flinkivm.examples.command.OptionDefaults;
import io.flinkivm.examples.command.OutputModeOption;
import io.flinkivm.examples.command.QueryTextOptions;
import io.flinkivm.examples.jobs.FlinkSettings;
import io.flinkivm.examples.report.FlinkClient;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.ExceptionUtils;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Help.Visibility;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code kafka}: maintains a query over inserts read from Kafka and writes snapshots of the result to Kafka. */
@Command(
        name = "kafka",
        sortOptions = false,
        showDefaultValues = true,
        defaultValueProvider = KafkaCommand.Defaults.class,
        header = "Maintains a query over inserts read from Kafka and writes snapshots of the result to Kafka.",
        description = {
            "Runs a Flink job (embedded, in this process) that reads inserts from one topic, or from one"
                    + " topic per relation, maintains the query's result, and writes snapshots of it to the output"
                    + " topic: at the end of the input (--bounded), every --snapshot-every inserts, and on each"
                    + " control record. With --format debezium-json or upsert-json it reads changes of rows"
                    + " (inserts, deletes and updates) over a ring. Malformed records, and deletes of rows"
                    + " that are not there, go to the dead-letter topic with the reason and their"
                    + " topic-partition@offset; the job goes on."
        },
        footerHeading = "%nRecord formats:%n",
        footer = {
            "  --format csv: UTF-8, one line per record (a trailing line break is ignored);",
            "  fields as in the run command's files (RFC 4180 within one line):",
            "      relation,value1,...,valueK[,payload]   on the --input-topic",
            "      value1,...,valueK[,payload]            on a --relation-topic",
            "      #snapshot                              a control record",
            "  --format json: one object per record:",
            "      {\"relation\":\"R1\",\"values\":[\"a\",\"b\"],\"payload\":\"3\"}   on the --input-topic",
            "      {\"values\":[\"a\",\"b\"],\"payload\":3}                   on a --relation-topic",
            "      {\"control\":\"snapshot\"}                               a control record",
            "  --format debezium-json: one Debezium change event per record (JsonConverter,",
            "  with or without its schema envelope), on a --relation-topic per table or on",
            "  the --input-topic with source.table naming the relation:",
            "      {\"before\":null,\"after\":{\"id\":1,\"a\":\"x\"},\"op\":\"c\",...}   op c or r: +I after",
            "      op u: -U before, then +U after; op d: -D before; null value: skipped",
            "  Each row counts once (payload: the semiring's one); --columns R=a,b picks",
            "  its values. A delete or update of a row that is not there is a dead letter.",
            "  Keep each row's events in one partition (Debezium keys them by primary key).",
            "  --format upsert-json: a --relation-topic per relation; the record key is a",
            "  row's primary key (any bytes), the value the row as a JSON object of columns",
            "  (as Debezium's after), or null to delete the key's row. The job keeps each",
            "  key's last row: a new value is -U of it, then +U; a delete of a key without",
            "  a row is a dead letter.",
            "  K is the relation's arity in the query. Values are text (JSON: strings,",
            "  numbers as written, booleans). The payload is optional (default: the",
            "  semiring's one), in the semiring's text form: natural 3, boolean true,",
            "  min-plus 2.5 or inf, provenance 2*x*y, ... A control record asks for a",
            "  snapshot of the result after every insert read before it.",
            "",
            "  Results, --output-mode snapshot (the default), keyed by the snapshot id:",
            "      {\"type\":\"row\",\"snapshot\":N,\"inserts\":N,\"prefixExact\":true,\"values\":[...],\"payload\":\"...\"}",
            "      {\"type\":\"end\",\"snapshot\":N,...,\"rows\":R,\"parts\":P,\"columns\":[...]}",
            "  Results, --output-mode changelog: an upsert topic, one record per changed result",
            "  tuple and trigger, keyed by the tuple (a JSON array of its values as text):",
            "      key [\"a1\",\"c1\"]  value {\"payload\":\"6\",\"kind\":\"+I\",\"trigger\":N,\"prefixExact\":true}",
            "  kind +I (new) or +U (changed); a tuple that left the result (after deletes,",
            "  or payloads that cancel) is a tombstone (null value). The last",
            "  value per key is the result; a compacted topic keeps just that.",
            "",
            "  Dead letters (--dead-letter-topic), keyed by origin:",
            "      {\"origin\":\"topic-partition@offset\",\"reason\":\"...\",\"record\":\"...\"}",
            "  for a record that is not UTF-8, not valid CSV or JSON, names an unknown",
            "  relation, has the wrong number of values, a null, an unknown JSON field",
            "  or a payload that does not parse; for updates that overflow; and for",
            "  deletes and updates of rows that are not there (debezium-json).",
            "",
            "  Results (--output-topic), keyed by snapshot id; rows, then end markers:",
            "      {\"type\":\"row\",\"snapshot\":12,\"inserts\":12,\"prefixExact\":true,",
            "       \"values\":[\"a1\",\"c1\"],\"payload\":\"6\"}",
            "      {\"type\":\"end\",\"snapshot\":12,\"inserts\":12,\"prefixExact\":true,",
            "       \"rows\":3,\"parts\":1,\"columns\":[\"A\",\"C\"]}",
            "  A snapshot is complete when 'parts' end markers with its id have arrived;",
            "  their 'rows' add up to its rows. 'inserts' is the number of accepted",
            "  inserts it reflects, in the order the job read them.",
            "",
            "Kafka:",
            "  The job reads each input topic from its earliest offset, so the result",
            "  covers every record in them; offsets are committed to --group-id on",
            "  checkpoints for monitoring only. Input topics must exist; the output and",
            "  dead-letter topics are created (1 partition) if missing.",
            "  exactly-once: both sinks write in Kafka transactions (transactional ids",
            "  <group-id>-results and <group-id>-dead-letters, transaction.timeout.ms",
            "  60000), committed on each checkpoint: consumers must read with",
            "  isolation.level=read_committed and see records up to one checkpoint",
            "  interval later. Give every running job its own --group-id.",
            "  at-least-once: records appear at once and may repeat after a restart.",
            "",
            "Exit codes:",
            "  0  the --bounded job finished (also when records were dead-lettered)",
            "  1  Kafka unreachable, an input topic missing, or the job failed",
            "     (after --restart-attempts restarts)",
            "  2  bad option, malformed query, unknown semiring, unsupported plan"
        })
public final class KafkaCommand implements Callable<Integer> {

    /** Exit code of a failed run. */
    static final int FAILURE = 1;
    /** Delivery guarantees of the sinks. */
    enum Delivery {
        EXACTLY_ONCE(DeliveryGuarantee.EXACTLY_ONCE),
        AT_LEAST_ONCE(DeliveryGuarantee.AT_LEAST_ONCE);

        final DeliveryGuarantee guarantee;

        Delivery(DeliveryGuarantee guarantee) {
            this.guarantee = guarantee;
        }
    }

    static final class FormatConverter extends Converters.EnumConverter<RecordFormat> {
        FormatConverter() {
            super(RecordFormat.class);
        }
    }

    static final class DeliveryConverter extends Converters.EnumConverter<Delivery> {
        DeliveryConverter() {
            super(Delivery.class);
        }
    }

    @Spec
    CommandSpec spec;

    @Option(
            names = {"-h", "--help"},
            usageHelp = true,
            description = "Show this help message and exit.")
    boolean help;

    @Mixin
    QueryTextOptions query;

    @Option(
            names = "--semiring",
            required = true,
            paramLabel = "SEMIRING",
            converter = Converters.SemiringConverter.class,
            description = {
                "The payload semiring: natural, boolean, min-plus, max-plus, viterbi, provenance,"
                        + " covariance:<m>, or a ring for deletes and updates: integer or covariance-ring:<m>."
            })
    Semiring<?> semiring;

    @Option(
            names = "--kafka-bootstrap",
            required = true,
            paramLabel = "HOST:PORT",
            description = {"Kafka bootstrap servers, e.g. localhost:9092 (comma-separated for several)."})
    String bootstrap;

    @Option(
            names = "--input-topic",
            paramLabel = "TOPIC",
            description = {
                "The topic of inserts whose records name their relation. Default: " + DEFAULT_INPUT_TOPIC
                        + " (unless --relation-topic is given)."
            })
    String inputTopic;

    @Option(
            names = "--relation-topic",
            paramLabel = "RELATION=TOPIC",
            showDefaultValue = Visibility.NEVER,
            description = {
                "A topic that carries one relation's inserts (values and payload only); repeat it for"
                        + " every relation of the query. Excludes --input-topic."
            })
    List<String> relationTopics = new ArrayList<>();

    @Option(
            names = "--format",
            paramLabel = "FORMAT",
            defaultValue = "csv",
            converter = FormatConverter.class,
            description = {
                "Input records: csv or json (see Record formats); debezium-json: Debezium change events;"
                        + " upsert-json: an upsert topic per relation (key: a row's primary key, value: the row,"
                        + " null to delete it). Deletes and updates need a ring (--semiring integer)."
            })
    RecordFormat format;

    @Option(
            names = "--columns",
            paramLabel = "RELATION=COL,...",
            showDefaultValue = Visibility.NEVER,
            description = {
                "With --format debezium-json or upsert-json: the columns of a relation's rows that are its values, in the"
                        + " order of its variables in the query; other columns are ignored. Without it a row's"
                        + " columns are taken in their order and must be as many as the relation's arity. A column"
                        + " may declare its type, e.g. R=id,price:DECIMAL(10,2): STRING (the value's text, as"
                        + " without a type), BIGINT or DECIMAL(p, s) (written with s decimal places; without a"
                        + " schema envelope a string is read as Debezium's base64 DECIMAL). A value that is not"
                        + " of its type is a dead letter."
            })
    List<String> columns = new ArrayList<>();

    @Option(
            names = "--output-topic",
            paramLabel = "TOPIC",
            defaultValue = "ivm-results",
            description = {
                "Where the snapshots of the result go (with --output-mode changelog: the changes,"
                        + " keyed by the result tuple; a topic this command creates is then compacted)."
            })
    String outputTopic;

    @Mixin
    OutputModeOption output;

    @Option(
            names = "--dead-letter-topic",
            paramLabel = "TOPIC",
            defaultValue = "ivm-dead-letters",
            description = {"Where malformed records go."})
    String deadLetterTopic;

    @Option(
            names = "--snapshot-every",
            paramLabel = "N",
            defaultValue = "0",
            description = {
                "Also write a snapshot every N accepted inserts; 0: only at the end of a --bounded"
                        + " input and on control records."
            })
    long snapshotEvery;

    @Mixin
    FlinkOptions flinkOptions;

    @Option(
            names = "--delivery",
            paramLabel = "GUARANTEE",
            defaultValue = "exactly-once",
            converter = DeliveryConverter.class,
            description = {
                "exactly-once (Kafka transactions, read with isolation.level=read_committed) or" + " at-least-once."
            })
    Delivery delivery;

    @Option(
            names = "--bounded",
            description = {
                "Read the input topics up to their latest offsets at start, write a final snapshot and"
                        + " finish. Without it the job runs until it is stopped."
            })
    boolean bounded;

    @Option(
            names = "--group-id",
            paramLabel = "ID",
            defaultValue = "flink-ivm",
            description = {"Kafka consumer group; also names the sinks' transactional ids."})
    String groupId;

    @Option(
            names = "--restart-attempts",
            paramLabel = "N",
            defaultValue = "3",
            description = {
                "Restarts from the last checkpoint after a failure, 1 s apart, before the command"
                        + " gives up; 0: fail at once."
            })
    int restartAttempts;

    @Option(
            names = "--fail-once-after",
            paramLabel = "N",
            defaultValue = "0",
            hidden = true,
            description = {
                "Test hook: fail the job once, N records after its first completed checkpoint (the records"
                        + " are slowed down by 1 ms each until then). 0: off."
            })
    long failOnceAfter;

    static final String DEFAULT_INPUT_TOPIC = "ivm-inserts";

    /**
     * The command's own defaults. Exactly-once output becomes visible at each checkpoint: a checkpoint every
     * second. Parallelism 1: a control record ends the epoch of the one ingest subtask that reads it, so above
     * the input's partition count (a rebalance deals records to the other subtasks) a control record's snapshot
     * waits for the other subtasks; give --parallelism up to the number of partitions.
     */
    static final class Defaults extends OptionDefaults {
        Defaults() {
            super(Map.of("--checkpoint-interval", "1 s", "--parallelism", "1"));
        }
    }

    @Override
    public Integer call() {
        ConjunctiveQuery q = query.parse(this::usage);
        // Change events may delete and update every relation: plan them all as changelogs.
        MaintenancePlan plan = changeEvents()
                ? query.plan(q, semiring, Inputs.changelog(q.relations()), this::usage)
                : query.plan(q, semiring, this::usage);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(flinkConfiguration());
        KafkaPipeline.Settings settings = settings(q, env.getParallelism());
        return execute(env, plan, settings, semiring);
    }

    private <T> int execute(
            StreamExecutionEnvironment env, MaintenancePlan plan, KafkaPipeline.Settings settings, Semiring<T> k) {
        KafkaPipeline.Settings s = settings;
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        int[] partitions = new int[1];
        String problem = KafkaTopics.prepare(s, partitions);
        if (problem != null) {
            err.println(problem);
            return FAILURE;
        }
        s = s.withInputPartitions(partitions[0]);
        out.println("kafka: " + plan.query() + " over " + k.name() + " (" + Converters.cliName(plan.kind())
                + " plan); reading " + describeInputs(s) + " as " + Converters.cliName(s.format()) + " from "
                + s.bootstrapServers());
        out.println("kafka: results to " + s.outputTopic() + ", dead letters to " + s.deadLetterTopic() + ", "
                + Converters.cliName(delivery) + (bounded ? ", bounded" : ", until stopped"));
        if (s.sourceParallelism() < s.parallelism()) {
            out.println("kafka: " + s.inputPartitions() + " input partition" + (s.inputPartitions() == 1 ? "" : "s")
                    + ": the source reads at parallelism " + s.sourceParallelism() + ", flink-ivm runs at "
                    + s.parallelism());
        }
        out.flush();
        if (!bounded && snapshotEvery == 0) {
            err.println("note: with --snapshot-every 0 an unbounded job writes a snapshot only on control records");
            err.flush();
        }
        KafkaPipeline.build(env, s, plan, k);
        long start = System.nanoTime();
        JobExecutionResult result;
        try {
            result = env.execute("flink-ivm kafka " + plan.query().name());
            if (FlinkClient.detached(env)) {
                out.println("kafka: submitted job " + result.getJobID() + " (detached); "
                        + (bounded ? "it finishes at the end of the input" : "it runs until it is cancelled or stopped")
                        + ", its counts are its accumulators " + ParseRecords.RECORDS_ACCUMULATOR + " and "
                        + CountDeadLetters.ACCUMULATOR);
                out.flush();
                return 0;
            }
        } catch (Exception e) {
            Throwable root = ExceptionUtils.stripExecutionException(e);
            while (root.getCause() != null && root.getCause() != root) {
                root = root.getCause();
            }
            err.println("kafka job failed: " + root);
            return FAILURE;
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        out.println("records read: " + counter(result, ParseRecords.RECORDS_ACCUMULATOR) + ", dead letters: "
                + counter(result, CountDeadLetters.ACCUMULATOR) + ", time: " + millis + " ms");
        out.flush();
        return 0;
    }

    private static long counter(JobExecutionResult result, String name) {
        Object v = result.getAccumulatorResult(name);
        return v instanceof Long l ? l : 0;
    }

    private static String describeInputs(KafkaPipeline.Settings s) {
        if (s.topicRelations().isEmpty()) {
            return "topic " + s.inputTopics().get(0);
        }
        List<String> parts = new ArrayList<>();
        s.topicRelations().forEach((topic, relation) -> parts.add(relation + " from " + topic));
        return String.join(", ", parts);
    }

    /** Checks the options against each other and the query; {@code parallelism} is the job's. */
    private KafkaPipeline.Settings settings(ConjunctiveQuery q, int parallelism) {
        requireText(bootstrap, "--kafka-bootstrap");
        requireText(outputTopic, "--output-topic");
        requireText(deadLetterTopic, "--dead-letter-topic");
        requireText(groupId, "--group-id");
        if (inputTopic != null && !relationTopics.isEmpty()) {
            throw usage("--input-topic and --relation-topic exclude each other: either one topic whose records name"
                    + " their relation, or one topic per relation");
        }
        Map<String, String> topicRelations = RelationOptions.relationTopics(relationTopics, q, this::usage);
        if (format == RecordFormat.UPSERT_JSON && topicRelations.isEmpty()) {
            throw usage("--format upsert-json reads one upsert topic per relation: give every relation a"
                    + " --relation-topic");
        }
        List<String> inputs = topicRelations.isEmpty()
                ? List.of(inputTopic == null ? DEFAULT_INPUT_TOPIC : requireText(inputTopic, "--input-topic"))
                : List.copyOf(topicRelations.keySet());
        if (outputTopic.equals(deadLetterTopic)) {
            throw usage("--output-topic and --dead-letter-topic are both '" + outputTopic
                    + "'; give them different topics");
        }
        for (String topic : List.of(outputTopic, deadLetterTopic)) {
            if (inputs.contains(topic)) {
                throw usage("topic '" + topic + "' is both an input and an output topic");
            }
        }
        if (snapshotEvery < 0) {
            throw usage("--snapshot-every must be >= 0, got " + snapshotEvery);
        }
        if (flinkOptions.checkpointsOff() && delivery == Delivery.EXACTLY_ONCE) {
            throw usage("--delivery exactly-once commits on checkpoints and needs --checkpoint-interval > 0;"
                    + " use --delivery at-least-once to run without checkpoints");
        }
        if (failOnceAfter < 0) {
            throw usage("--fail-once-after must be >= 0, got " + failOnceAfter);
        }
        if (restartAttempts < 0) {
            throw usage("--restart-attempts must be >= 0, got " + restartAttempts);
        }
        return new KafkaPipeline.Settings(
                bootstrap.trim(),
                inputs,
                topicRelations,
                format,
                RelationOptions.columns(columns, changeEvents(), q, this::usage),
                outputTopic,
                deadLetterTopic,
                delivery.guarantee,
                groupId,
                bounded,
                parallelism,
                snapshotEvery,
                failOnceAfter,
                0,
                output.mode());
    }

    /** Whether the input records are changes of rows (deletes and updates), not inserts. */
    private boolean changeEvents() {
        return format == RecordFormat.DEBEZIUM_JSON || format == RecordFormat.UPSERT_JSON;
    }

    /** The Flink settings of the options ({@link FlinkSettings#configuration()}), with this command's restarts. */
    private Configuration flinkConfiguration() {
        Configuration c = flinkOptions.settings(this::usage).configuration();
        if (restartAttempts == 0) {
            c.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        } else {
            c.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
            c.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, restartAttempts);
            c.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofSeconds(1));
        }
        return c;
    }

    private String requireText(String value, String option) {
        if (value == null || value.isBlank()) {
            throw usage(option + " must not be empty");
        }
        return value;
    }

    private CommandLine.ParameterException usage(String message) {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }
}
