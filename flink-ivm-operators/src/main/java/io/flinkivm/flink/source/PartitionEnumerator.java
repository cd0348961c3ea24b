package io.flinkivm.flink.source;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.TreeMap;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;

/**
 * Hands out the unassigned partitions one at a time, on request: to reader subtask i the smallest
 * unassigned p with p mod P == i (P the source's current parallelism), or, if there is none, the
 * signal that no more splits will come. Splits given back after a failure become unassigned again,
 * so they go back to the same subtask.
 */
final class PartitionEnumerator implements SplitEnumerator<PartitionSplit, List<PartitionSplit>> {

    private final SplitEnumeratorContext<PartitionSplit> context;
    /** By partition index. */
    private final TreeMap<Integer, PartitionSplit> unassigned = new TreeMap<>();

    PartitionEnumerator(SplitEnumeratorContext<PartitionSplit> context, Collection<PartitionSplit> unassigned) {
        this.context = context;
        for (PartitionSplit split : unassigned) {
            put(split);
        }
    }

    @Override
    public void start() {}

    @Override
    public void handleSplitRequest(int subtask, String requesterHostname) {
        int parallelism = context.currentParallelism();
        for (PartitionSplit split : unassigned.values()) {
            if (split.partition() % parallelism == subtask) {
                unassigned.remove(split.partition());
                context.assignSplit(split, subtask);
                return;
            }
        }
        context.signalNoMoreSplits(subtask);
    }

    @Override
    public void addSplitsBack(List<PartitionSplit> splits, int subtask) {
        for (PartitionSplit split : splits) {
            put(split);
        }
    }

    /** Readers ask for splits themselves once they run out. */
    @Override
    public void addReader(int subtask) {}

    @Override
    public List<PartitionSplit> snapshotState(long checkpointId) {
        return new ArrayList<>(unassigned.values());
    }

    @Override
    public void close() {}

    private void put(PartitionSplit split) {
        PartitionSplit before = unassigned.put(split.partition(), split);
        if (before != null) {
            throw new IllegalStateException(
                    "Partition " + split.partition() + " is unassigned twice: " + before + " and " + split);
        }
    }
}
