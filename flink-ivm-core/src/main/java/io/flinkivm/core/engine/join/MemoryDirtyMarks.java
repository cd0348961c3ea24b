package io.flinkivm.core.engine.join;

import io.flinkivm.core.query.Tuple;
import java.util.Arrays;
import org.apache.flink.annotation.Internal;

/**
 * The (node, tuple) pairs marked changed since the last trigger, in the order they were marked: what
 * the in-memory stores of the joins above the border keep for {@code markDirty}, {@code forEachDirty}
 * and {@code clearDirty}. Each pair is marked once per trigger by its caller.
 */
@Internal
public final class MemoryDirtyMarks {
    private int[] nodes = new int[16];
    private Tuple[] tuples = new Tuple[16];
    private int count;

    public void mark(int node, Tuple tuple) {
        if (count == nodes.length) {
            nodes = Arrays.copyOf(nodes, 2 * count);
            tuples = Arrays.copyOf(tuples, 2 * count);
        }
        nodes[count] = node;
        tuples[count++] = tuple;
    }

    public void forEach(JoinRecordStore.DirtyAction action) {
        for (int i = 0; i < count; i++) {
            action.accept(nodes[i], tuples[i]);
        }
    }

    public void clear() {
        Arrays.fill(tuples, 0, count, null);
        count = 0;
    }

    public int count() {
        return count;
    }
}
