package io.flinkivm.examples.jobs;

import io.flinkivm.core.query.ResultTuple;
import io.flinkivm.core.semiring.Semiring;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * A runnable example: a query over a semiring with a story, and a generator of its input stream.
 * {@link ExampleRunner} runs any of them on Flink; {@code flink-ivm example NAME} runs the one that
 * {@link ExampleJobs} registers under {@link #name()}. To add an example, implement this interface
 * and add one line to {@link ExampleJobs#all()}.
 *
 * @param <T> the payload type
 */
public interface ExampleJob<T> {

    /** The name on the command line, e.g. {@code ex10}: lower case, no spaces. */
    String name();

    /** One line: what the example shows. */
    String title();

    /** A few lines that explain the relations and what a result tuple and its payload mean. */
    List<String> story();

    /** The query text (see {@link io.flinkivm.core.query.QueryParser}). */
    String query();

    Semiring<T> semiring();

    /**
     * How fast each relation receives inserts relative to the others, as given to
     * {@code IvmOptions.withRelationRates}; by default none (every root view equally fast).
     */
    default Map<String, Double> relationRates() {
        return Map.of();
    }

    /** The number of inserts without {@code --inserts}: a run of a few seconds. */
    long defaultInserts();

    /** The generated stream for {@code settings}; deterministic. */
    InsertGenerator<T> generator(GeneratorSettings settings);

    /** How the summary orders the result rows it shows: by default by tuple, numbers inside values in numeric order. */
    default Comparator<ResultTuple<T>> resultOrder() {
        return Comparator.comparing(ResultTuple::tuple, Rows.NATURAL_ORDER);
    }

    /** What the order is, for the summary, e.g. "by tuple" or "cheapest first". */
    default String resultOrderName() {
        return "by tuple";
    }

    /** A payload as the summary prints it. */
    default String formatPayload(T payload) {
        return semiring().format(payload);
    }

    /** Extra lines printed under the first result row of the summary (e.g. the facts behind its provenance). */
    default List<String> explainRow(ResultTuple<T> row, InsertGenerator<T> generator) {
        return List.of();
    }
}
