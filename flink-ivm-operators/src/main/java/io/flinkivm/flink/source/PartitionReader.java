package io.flinkivm.flink.source;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiter;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.core.memory.DataInputDeserializer;

/**
 * Reads the splits it holds one after another, in increasing partition index, each from its
 * position on, and asks the enumerator for the next split when it runs out. Every record takes one
 * permit of the rate limiter just before it is emitted (the first permit is taken when the reader
 * starts), so a limiter that lets n permits through stops the reader after exactly n records.
 */
final class PartitionReader<T> implements SourceReader<T, PartitionSplit> {

    private final SourceReaderContext context;
    private final PartitionedSource<T> source;
    private final TypeSerializer<T> serializer;
    private final RateLimiter<?> limiter;
    /** Held splits not started yet, by partition index. */
    private final PriorityQueue<PartitionSplit> held =
            new PriorityQueue<>(Comparator.comparingInt(PartitionSplit::partition));
    /** The current partition's serialized records, from the next record on. */
    private final DataInputDeserializer input = new DataInputDeserializer();

    /** Index of the partition being read, -1 if none. */
    private int partition = -1;
    /** Records of the current partition emitted so far. */
    private int position;

    private int size;
    /** The permit for the next record; null once used. */
    private CompletableFuture<Void> permit;
    /** Completes when splits arrive or the enumerator says there will be none. */
    private CompletableFuture<Void> splits = new CompletableFuture<>();

    private CompletableFuture<Void> available = CompletableFuture.completedFuture(null);
    private boolean requested;
    private boolean noMoreSplits;

    PartitionReader(
            SourceReaderContext context,
            PartitionedSource<T> source,
            TypeSerializer<T> serializer,
            RateLimiter<?> limiter) {
        this.context = context;
        this.source = source;
        this.serializer = serializer;
        this.limiter = limiter;
    }

    @Override
    public void start() {
        permit = limiter.acquire().toCompletableFuture();
        requestIfIdle();
    }

    @Override
    public InputStatus pollNext(ReaderOutput<T> output) throws Exception {
        if (partition < 0 && !nextSplit()) {
            if (noMoreSplits) {
                return InputStatus.END_OF_INPUT;
            }
            requestIfIdle();
            if (splits.isDone()) {
                splits = new CompletableFuture<>();
            }
            available = splits;
            return InputStatus.NOTHING_AVAILABLE;
        }
        if (permit == null) {
            permit = limiter.acquire().toCompletableFuture();
        }
        if (!permit.isDone()) {
            available = permit;
            return InputStatus.NOTHING_AVAILABLE;
        }
        permit = null;
        output.collect(serializer.deserialize(input));
        if (++position == size) {
            partition = -1;
            requestIfIdle();
        }
        return InputStatus.MORE_AVAILABLE;
    }

    /** Moves to the first held split with records left; false if there is none. */
    private boolean nextSplit() {
        while (!held.isEmpty()) {
            PartitionSplit split = held.poll();
            int p = split.partition();
            if (split.position() < source.partitionSize(p)) {
                byte[] bytes = source.serialized(p);
                partition = p;
                position = split.position();
                size = source.partitionSize(p);
                input.setBuffer(bytes, split.offset(), bytes.length - split.offset());
                return true;
            }
        }
        return false;
    }

    /** Asks for a split when the reader holds none, has not asked yet and may still get one. */
    private void requestIfIdle() {
        if (partition < 0 && held.isEmpty() && !requested && !noMoreSplits) {
            requested = true;
            context.sendSplitRequest();
        }
    }

    @Override
    public CompletableFuture<Void> isAvailable() {
        return available;
    }

    @Override
    public void addSplits(List<PartitionSplit> added) {
        for (PartitionSplit split : added) {
            source.checkFits(split);
        }
        held.addAll(added);
        requested = false;
        splits.complete(null);
    }

    @Override
    public void notifyNoMoreSplits() {
        noMoreSplits = true;
        requested = false;
        splits.complete(null);
    }

    /** The split being read (at its position) first, then the held ones by partition index. */
    @Override
    public List<PartitionSplit> snapshotState(long checkpointId) {
        List<PartitionSplit> state = new ArrayList<>(1 + held.size());
        if (partition >= 0) {
            state.add(new PartitionSplit(partition, position, input.getPosition()));
        }
        List<PartitionSplit> rest = new ArrayList<>(held);
        rest.sort(held.comparator());
        state.addAll(rest);
        return state;
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {
        limiter.notifyCheckpointComplete(checkpointId);
    }

    @Override
    public void close() {
        input.releaseArrays();
    }
}
