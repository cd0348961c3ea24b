package io.flinkivm.flink.common;

import io.flinkivm.core.partition.CellRouter;
import io.flinkivm.core.query.Tuple;
import java.util.List;
import org.apache.flink.annotation.Internal;

/**
 * Where a tuple of one schema goes in the sink's HyperCube: the cells that agree with its values
 * (core's {@link CellRouter}) as the Flink keys of their key groups ({@link CellLayout}). The ingest
 * (per atom of the fallback, per tree straight to the sink) and the view tree operators send through
 * one each. {@link #route} fills a reused buffer: read the keys before the next call. Not thread-safe.
 */
@Internal
public final class CellFanOut {
    private final CellLayout layout;
    private final CellRouter router;
    private final int[] cells;

    public CellFanOut(CellLayout layout, List<String> schema) {
        this.layout = layout;
        this.router = new CellRouter(layout.shares(), schema);
        this.cells = new int[layout.cells()];
    }

    /** The number of cells that agree with {@code tuple}; their keys are {@link #key}(0) to (n - 1). */
    public int route(Tuple tuple) {
        return router.cells(tuple, cells);
    }

    /** The key of the {@code i}-th cell of the last {@link #route}. */
    public Tuple key(int i) {
        return layout.key(cells[i]);
    }
}
