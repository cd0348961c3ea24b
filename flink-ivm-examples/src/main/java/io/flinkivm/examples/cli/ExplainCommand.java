package io.flinkivm.examples.cli;

import io.flinkivm.core.partition.RelationRates;
import io.flinkivm.core.plan.Inputs;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.core.window.Windows;
import io.flinkivm.examples.command.CliException;
import io.flinkivm.examples.command.Converters;
import io.flinkivm.examples.command.Version;
import io.flinkivm.flink.FlinkJobLayout;
import io.flinkivm.flink.IvmOptions;
import io.flinkivm.sql.translate.SqlTranslation;
import io.flinkivm.sql.translate.TableInput;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code explain}: prints the classification and the maintenance plan of a query. */
@Command(
        name = "explain",
        mixinStandardHelpOptions = true,
        versionProvider = Version.class,
        sortOptions = false,
        header = "Prints the classification and the maintenance plan of a query.",
        description = {
            "With --sql and --schema instead of --query, it first prints the SQL's translation (the"
                    + " conjunctive query, the semiring, each table's columns and payload, the result's columns), then"
                    + " the same as for that conjunctive query.",
            "Classifies a query (hierarchical, q-hierarchical, p-hierarchical, α-acyclic, free-connex,"
                    + " with a witness for each 'no') and prints how it would be maintained: the view trees below the"
                    + " Boolean border, the Boolean join tree above it and the complexity guarantee, or the"
                    + " fallback delta joins and why they were chosen. The text ends with the section 'Flink job:',"
                    + " one line per operator of the job flink-ivm builds at --parallelism: its name (as the web UI"
                    + " shows it), its parallelism and how its input is partitioned; with --relation-rates, the sink's"
                    + " HyperCube shares are sized for those rates and the line says so."
        },
        footerHeading = "%nExit codes:%n",
        footer = {
            "  0  the plan was printed",
            "  2  malformed query or SQL (the message gives the position), SQL outside the supported subset,"
                    + " unknown semiring, unsupported plan or bad option"
        })
final class ExplainCommand implements Callable<Integer> {

    /** What {@code --format} can select. */
    enum Format {
        TEXT,
        MERMAID
    }

    static final class FormatConverter extends Converters.EnumConverter<Format> {
        FormatConverter() {
            super(Format.class);
        }
    }

    @Spec
    CommandSpec spec;

    @Mixin
    QueryOptions queryOptions;

    @Option(
            names = "--semiring",
            paramLabel = "SEMIRING",
            defaultValue = "natural",
            converter = Converters.SemiringConverter.class,
            description = {
                "The payload semiring: natural, boolean, min-plus, max-plus, viterbi, provenance or"
                        + " covariance:<m> (m features), or a ring for deletes: integer or covariance-ring:<m>. It"
                        + " decides whether the p-hierarchical plan applies (the semiring must be positive)."
                        + " Default: ${DEFAULT-VALUE}."
            })
    Semiring<?> semiring;

    @Option(
            names = "--format",
            paramLabel = "FORMAT",
            defaultValue = "text",
            converter = FormatConverter.class,
            description = {
                "text (the plan's explain()) or mermaid (a Mermaid flowchart of the plan)."
                        + " Default: ${DEFAULT-VALUE}."
            })
    Format format;

    @Option(
            names = "--parallelism",
            paramLabel = "P",
            defaultValue = "1",
            description = {
                "The parallelism of the Flink job whose operators the section 'Flink job:' lists."
                        + " Default: ${DEFAULT-VALUE}."
            })
    int parallelism;

    @Option(
            names = "--relation-rates",
            paramLabel = "R=RATE,...",
            converter = Converters.RelationRatesConverter.class,
            description = {
                "How fast each relation receives inserts relative to the others, e.g."
                        + " Customer=150000,Orders=1500000,Lineitem=6001215 (table sizes will do): the sink's"
                        + " HyperCube shares then minimise the expected updates per cell instead of assuming equally"
                        + " large root views (IvmOptions.withRelationRates). Names every relation of the query. Default:"
                        + " all equally fast."
            })
    RelationRates rates = RelationRates.none();

    @Option(
            names = "--changelog",
            paramLabel = "R,...",
            split = ",",
            description = {
                "Relations whose rows are also deleted and updated (as run's -D and -U lines): the plan for such"
                        + " inputs, over a ring (--semiring integer; with --sql: tables, and the aggregates' ring). q-hierarchical queries keep O(1) per change;"
                        + " others take the fallback, and the text says which relations forced it. Such plans run on"
                        + " the in-memory engine only: the section 'Flink job:' says so. Default: none."
            })
    List<String> changelog = List.of();

    @Override
    public Integer call() {
        if (parallelism < 1) {
            throw CliException.usage("--parallelism must be at least 1, got " + parallelism);
        }
        PrintWriter out = spec.commandLine().getOut();
        if (queryOptions.isSql()) {
            if (spec.commandLine().getParseResult().hasMatchedOption("--semiring")) {
                throw CliException.usage("--semiring does not go with --sql: the SQL's aggregate decides the semiring");
            }
            SqlTranslation translation = queryOptions.translate();
            Inputs inputs = changelogTables(translation);
            MaintenancePlan plan = queryOptions
                    .plan(translation.query(), translation.semiringFor(inputs), inputs)
                    .withTables(translation.tablesOfSharedRows());
            String job = job(plan, rates, translation.windows());
            out.print(
                    format == Format.MERMAID
                            ? plan.toMermaid()
                            : translation.explain(inputs) + "\n" + plan.explain()
                                    + translation.windows().explain(plan) + job);
            out.flush();
            return 0;
        }
        ConjunctiveQuery query = queryOptions.parse();
        Inputs inputs = Inputs.changelog(changelog);
        try {
            inputs.check(query);
        } catch (IllegalArgumentException e) {
            throw CliException.usage("--changelog: " + e.getMessage());
        }
        MaintenancePlan plan = queryOptions.plan(query, semiring, inputs);
        String job = job(plan, rates, Windows.NONE);
        out.print(format == Format.MERMAID ? plan.toMermaid() : plan.explain() + job);
        out.flush();
        return 0;
    }

    /** The relations of the tables that --changelog names, for --sql: a deleted row leaves every relation of its table. */
    private Inputs changelogTables(SqlTranslation translation) {
        List<String> relations = new ArrayList<>();
        for (String name : changelog) {
            TableInput table = translation.table(name.trim());
            if (table == null) {
                List<String> names = new ArrayList<>();
                for (TableInput t : translation.tables()) {
                    names.add(t.name());
                }
                throw CliException.usage("--changelog: " + name.trim() + " is not a table of the query; with --sql it"
                        + " names tables, and the query reads " + String.join(", ", names));
            }
            relations.addAll(table.relations());
        }
        return Inputs.changelog(relations);
    }

    /** The section {@code Flink job:} at {@link #parallelism}; rates that do not fit the query are a usage error. */
    private String job(MaintenancePlan plan, RelationRates rates, Windows windows) {
        try {
            return FlinkJobLayout.of(plan, parallelism, rates)
                    .withStateTtl(queryOptions.withStateTtl(IvmOptions.defaults()))
                    .withWindows(windows)
                    .explain();
        } catch (IllegalArgumentException e) {
            throw CliException.usage("--relation-rates: " + e.getMessage());
        }
    }
}
