package io.flinkivm.flink.ingest;

import io.flinkivm.core.partition.Shares;
import io.flinkivm.flink.common.CellLayout;
import io.flinkivm.flink.types.Delta;
import io.flinkivm.flink.types.RootUpdate;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.util.OutputTag;

/**
 * Where the {@link IngestOperator} sends what an insert does: per view tree, the side output to its
 * tree operator, or, for a tree without state below its root (every atom feeds the root view
 * directly, through projections only), straight to the sink as a {@link RootUpdate} to add; or, for
 * the fallback, the side output to its partitions. With the sink's (or fallback's) HyperCube cells
 * the ingest sends each of those to every cell that agrees with it.
 */
@Internal
public final class IngestRoutes<T> implements Serializable {
    private static final long serialVersionUID = 1L;

    private final List<OutputTag<Delta<T>>> treeTags;
    private final OutputTag<RootUpdate<T>> directTag;
    private final OutputTag<Delta<T>> fallbackTag;
    private final Shares sinkShares;
    private final int sinkParallelism;
    private final int sinkMaxParallelism;
    private final List<String> fallbackChecks;

    private IngestRoutes(
            List<OutputTag<Delta<T>>> treeTags,
            OutputTag<RootUpdate<T>> directTag,
            OutputTag<Delta<T>> fallbackTag,
            Shares sinkShares,
            int sinkParallelism,
            int sinkMaxParallelism,
            List<String> fallbackChecks) {
        this.treeTags = Collections.unmodifiableList(new ArrayList<>(treeTags));
        this.directTag = directTag;
        this.fallbackTag = fallbackTag;
        this.sinkShares = sinkShares;
        this.sinkParallelism = sinkParallelism;
        this.sinkMaxParallelism = sinkMaxParallelism;
        this.fallbackChecks = List.copyOf(fallbackChecks);
    }

    /**
     * The routes of a p-hierarchical plan.
     *
     * @param treeTags per tree index, the side output to its tree operator, or null for a tree whose
     *     root updates go straight to the sink
     * @param directTag the side output of those root updates (null if every tree has an operator)
     * @param sinkShares the sink's HyperCube cells, or null when it is keyed by a shared variable's value
     * @param sinkParallelism the sink's parallelism, to place the cells
     * @param sinkMaxParallelism the sink's number of key groups, to place the cells
     */
    public static <T> IngestRoutes<T> trees(
            List<OutputTag<Delta<T>>> treeTags,
            OutputTag<RootUpdate<T>> directTag,
            Shares sinkShares,
            int sinkParallelism,
            int sinkMaxParallelism) {
        if (treeTags.stream().anyMatch(Objects::isNull) != (directTag != null)) {
            throw new IllegalArgumentException(
                    "a tree without a tag needs the tag of the updates straight to the sink");
        }
        return new IngestRoutes<>(
                treeTags, directTag, null, sinkShares, sinkParallelism, sinkMaxParallelism, List.of());
    }

    /**
     * The routes of the fallback: its side output, and its HyperCube cells (or null when it is keyed
     * by the value of a variable every atom has, or runs in one cell).
     *
     * @param checks the relations whose deletes reach the ingest unchecked, for the fallback to check
     *     against its own relations: their deltas are sent as checked deletes
     */
    public static <T> IngestRoutes<T> fallback(
            OutputTag<Delta<T>> tag, Shares shares, int parallelism, int maxParallelism, List<String> checks) {
        return new IngestRoutes<>(List.of(), null, tag, shares, parallelism, maxParallelism, checks);
    }

    /** The relations whose deletes the fallback checks (sent as checked deletes). */
    List<String> fallbackChecks() {
        return fallbackChecks;
    }

    boolean isFallback() {
        return fallbackTag != null;
    }

    /** The side output of tree {@code tree}'s deltas, or null if its updates go straight to the sink. */
    OutputTag<Delta<T>> treeTag(int tree) {
        return treeTags.get(tree);
    }

    int trees() {
        return treeTags.size();
    }

    OutputTag<RootUpdate<T>> directTag() {
        return directTag;
    }

    OutputTag<Delta<T>> fallbackTag() {
        return fallbackTag;
    }

    /** The cells of the operator that holds the result, created fresh (a job restores the ones it started with). */
    CellLayout freshLayout() {
        return sinkShares == null ? null : CellLayout.create(sinkShares, sinkParallelism, sinkMaxParallelism);
    }

    /** Whether the ingest places anything in cells: the fallback's deltas, or root updates straight to the sink. */
    boolean needsCells() {
        return sinkShares != null && (isFallback() || directTag != null);
    }
}
