package io.flinkivm.examples.cli;

import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.semiring.Semiring;
import picocli.CommandLine.Option;

/** The options {@code --query} and {@code --plan}, mixed into every subcommand that plans a query. */
final class QueryOptions {

    @Option(names = "--query", required = true, paramLabel = "QUERY",
            description = {"The conjunctive query, e.g. 'Q(A,C) :- R(A,B), S(B,C)'. Variables and relation names are"
                    + " identifiers; constants are 'quoted strings' or numbers and select tuples by their text."})
    String query;

    @Option(names = "--plan", paramLabel = "STRATEGY", defaultValue = "auto",
            converter = Converters.StrategyConverter.class,
            description = {"Which plan to build: auto (the p-hierarchical plan where it applies, otherwise first-order"
                    + " delta joins), p-hierarchical (refuse with exit code 2 where it does not apply) or fallback"
                    + " (always delta joins). Default: ${DEFAULT-VALUE}."})
    Planner.Strategy strategy;

    /** The parsed query; a malformed one ends the command with exit code 2 and the parser's positioned message. */
    ConjunctiveQuery parse() {
        return QueryPlanning.parse(query, CliException::usage);
    }

    /** The plan of {@code q} over {@code semiring}; an unsupported plan ends the command with exit code 2. */
    MaintenancePlan plan(ConjunctiveQuery q, Semiring<?> semiring) {
        return QueryPlanning.plan(q, semiring, strategy, CliException::usage);
    }
}
