package io.flinkivm.examples.command;

import io.flinkivm.core.plan.Inputs;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.semiring.Semiring;
import java.util.function.Function;
import picocli.CommandLine.Help.Visibility;
import picocli.CommandLine.Option;

/**
 * {@code --query} and {@code --plan}, declared once: mixed into {@code kafka} and {@code soak}, and into
 * the query options of {@code explain} and {@code run}, which add {@code --sql}.
 */
public final class QueryTextOptions {

    @Option(
            names = "--query",
            paramLabel = "QUERY",
            showDefaultValue = Visibility.ON_DEMAND,
            description = {
                "The conjunctive query, e.g. 'Q(A,C) :- R(A,B), S(B,C)'. Variables and relation names are"
                        + " identifiers; constants are 'quoted strings' or numbers and select tuples by their text."
            })
    String query;

    @Option(
            names = "--plan",
            paramLabel = "STRATEGY",
            defaultValue = "auto",
            showDefaultValue = Visibility.NEVER,
            converter = Converters.StrategyConverter.class,
            description = {
                "Which plan to build: auto (the p-hierarchical plan where it applies, otherwise first-order"
                        + " delta joins), p-hierarchical (refuse with exit code 2 where it does not apply) or fallback"
                        + " (always delta joins). Default: ${DEFAULT-VALUE}."
            })
    Planner.Strategy strategy;

    /** The query's text, or null if none was given. */
    public String text() {
        return query;
    }

    /**
     * The parsed query; a missing or malformed one becomes {@code usage(message)} (exit code 2), with the
     * parser's position.
     */
    public ConjunctiveQuery parse(Function<String, ? extends RuntimeException> usage) {
        if (query == null) {
            throw usage.apply("Missing required option: '--query=QUERY'");
        }
        return QueryPlanning.parse(query, usage);
    }

    /** The plan of {@code q} over {@code semiring} as {@code --plan} asks; an unsupported one becomes {@code usage}. */
    public MaintenancePlan plan(
            ConjunctiveQuery q, Semiring<?> semiring, Function<String, ? extends RuntimeException> usage) {
        return QueryPlanning.plan(q, semiring, strategy, usage);
    }

    /** The same for {@code inputs}: the relations that receive deletes and updates. */
    public MaintenancePlan plan(
            ConjunctiveQuery q,
            Semiring<?> semiring,
            Inputs inputs,
            Function<String, ? extends RuntimeException> usage) {
        return QueryPlanning.plan(q, semiring, strategy, inputs, usage);
    }
}
