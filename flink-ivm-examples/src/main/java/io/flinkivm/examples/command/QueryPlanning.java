package io.flinkivm.examples.command;

import io.flinkivm.core.plan.Inputs;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.plan.UnsupportedPlanException;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.InvalidQueryException;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.semiring.Semiring;
import java.util.function.Function;

/**
 * Parsing and planning the query of a command line, with the messages every subcommand prints. Each
 * command passes its own usage error (exit code 2): {@code CliException.usage} or picocli's
 * {@code ParameterException}.
 */
public final class QueryPlanning {
    private QueryPlanning() {}

    /** The parsed query; a malformed one becomes {@code usage("invalid query: ...")} with the parser's position. */
    public static ConjunctiveQuery parse(String text, Function<String, ? extends RuntimeException> usage) {
        try {
            return QueryParser.parse(text);
        } catch (InvalidQueryException e) {
            throw usage.apply("invalid query: " + e.getMessage());
        }
    }

    /** The plan of {@code q}; an unsupported one becomes {@code usage("unsupported plan: ...")}. */
    public static MaintenancePlan plan(
            ConjunctiveQuery q,
            Semiring<?> semiring,
            Planner.Strategy strategy,
            Function<String, ? extends RuntimeException> usage) {
        return plan(q, semiring, strategy, Inputs.INSERT_ONLY, usage);
    }

    /**
     * The plan of {@code q} for {@code inputs} (relations with deletes); an unsupported one becomes
     * {@code usage("unsupported plan: ...")}.
     */
    public static MaintenancePlan plan(
            ConjunctiveQuery q,
            Semiring<?> semiring,
            Planner.Strategy strategy,
            Inputs inputs,
            Function<String, ? extends RuntimeException> usage) {
        try {
            return Planner.plan(q, semiring, strategy, inputs);
        } catch (UnsupportedPlanException e) {
            throw usage.apply("unsupported plan: " + e.getMessage());
        }
    }
}
