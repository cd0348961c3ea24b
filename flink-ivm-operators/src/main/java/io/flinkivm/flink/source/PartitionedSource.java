package io.flinkivm.flink.source;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.api.java.ClosureCleaner;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/**
 * A bounded, checkpointed source over a fixed list of partitions, each an ordered list of records,
 * read with a deterministic assignment: at parallelism P, reader subtask i reads the partitions p
 * with {@code p mod P == i}, each in order, one after another in increasing p. A forward edge to a
 * chained next stage thus shows subtask i exactly partition i's records in order when P equals the
 * number of partitions. A reader with no partition (left) is told so and finishes (its watermark
 * goes to +inf, as a finished source's does).
 *
 * <p>The records are held serialized with the type's {@link TypeSerializer}, created when the
 * source is built. A reader's checkpointed state is the partition it reads and its position in it
 * ({@link PartitionSplit}); a restore continues right after the last record emitted before the
 * checkpoint. The enumerator's state is the partitions not assigned yet; it assigns them one at a
 * time, when a reader runs out.
 *
 * <p>Restored at another parallelism P', Flink redistributes the readers' split states (a reader
 * usually holds one, its partition in flight): it lists them in old subtask order and hands new
 * subtasks 0, 1, ... consecutive runs of them whose lengths differ by at most one, longer runs
 * first. From 2 to 4, new subtask j continues old subtask j's partition and 2, 3 get none; from 4
 * to 2, new subtask 0 gets old 0's and 1's, new subtask 1 old 2's and 3's; to 1, subtask 0 gets all.
 * Each reader finishes its restored splits in increasing partition index, then asks for more: the
 * restored enumerator hands each unassigned partition p to subtask p mod P'. Every record is read
 * exactly once over both jobs ({@code PartitionedSourceITCase} checks 2 to 1, 2 to 4 and 4 to 2).
 * At the same parallelism every subtask gets its own state back.
 *
 * <pre>{@code
 * PartitionedSource<Long> source = PartitionedSource.of(PartitionedSource.roundRobin(records, 4), Types.LONG)
 *         .withRateLimit(RateLimiterStrategy.perCheckpoint(1000));
 * env.fromSource(source, WatermarkStrategy.noWatermarks(), "records").setParallelism(4);
 * }</pre>
 *
 * @param <T> the record type
 */
@Internal
public final class PartitionedSource<T>
        implements Source<T, PartitionSplit, List<PartitionSplit>>, ResultTypeQueryable<T> {

    private static final long serialVersionUID = 1L;

    private final TypeInformation<T> type;
    private final TypeSerializer<T> serializer;
    /** Each partition's records, serialized one after another. */
    private final byte[][] serialized;

    private final int[] sizes;
    private final RateLimiterStrategy<?> rateLimit;

    private PartitionedSource(
            TypeInformation<T> type,
            TypeSerializer<T> serializer,
            byte[][] serialized,
            int[] sizes,
            RateLimiterStrategy<?> rateLimit) {
        this.type = type;
        this.serializer = serializer;
        this.serialized = serialized;
        this.sizes = sizes;
        this.rateLimit = rateLimit;
    }

    /**
     * A source over {@code partitions} (copied, serialized now), without rate limit; the records'
     * serializer comes from a default serializer configuration.
     */
    public static <T> PartitionedSource<T> of(List<? extends List<? extends T>> partitions, TypeInformation<T> type) {
        return of(partitions, type, new ExecutionConfig().getSerializerConfig());
    }

    /**
     * As {@link #of(List, TypeInformation)}, with the serializer created under {@code config}: pass
     * the job's ({@code env.getConfig().getSerializerConfig()}) when the type relies on Kryo
     * registrations made by configuration.
     */
    public static <T> PartitionedSource<T> of(
            List<? extends List<? extends T>> partitions, TypeInformation<T> type, SerializerConfig config) {
        if (partitions == null || type == null || config == null) {
            throw new IllegalArgumentException("partitions, type and config must not be null");
        }
        TypeSerializer<T> serializer = type.createSerializer(config);
        byte[][] serialized = new byte[partitions.size()][];
        int[] sizes = new int[partitions.size()];
        DataOutputSerializer out = new DataOutputSerializer(256);
        for (int p = 0; p < partitions.size(); p++) {
            List<? extends T> records = partitions.get(p);
            if (records == null) {
                throw new IllegalArgumentException("Partition " + p + " is null; an empty partition is an empty list.");
            }
            out.clear();
            for (int i = 0; i < records.size(); i++) {
                T record = records.get(i);
                if (record == null) {
                    throw new IllegalArgumentException("Record " + i + " of partition " + p + " is null.");
                }
                try {
                    serializer.serialize(record, out);
                } catch (IOException e) {
                    throw new UncheckedIOException("Cannot serialize record " + i + " of partition " + p, e);
                }
            }
            serialized[p] = out.getCopyOfBuffer();
            sizes[p] = records.size();
        }
        return new PartitionedSource<>(type, serializer, serialized, sizes, RateLimiterStrategy.noOp());
    }

    /**
     * A copy whose every reader is throttled by a limiter from {@code strategy}, created with the
     * source's parallelism, as {@code DataGeneratorSource} does: e.g.
     * {@link RateLimiterStrategy#perCheckpoint(int)} lets each of P readers emit n / P records per
     * completed checkpoint. One permit per record (and a first one when the reader starts), so a
     * limiter that stops granting stops its reader at a known position.
     */
    public PartitionedSource<T> withRateLimit(RateLimiterStrategy<?> strategy) {
        if (strategy == null) {
            throw new IllegalArgumentException("strategy must not be null; RateLimiterStrategy.noOp() does not limit");
        }
        ClosureCleaner.clean(strategy, ExecutionConfig.ClosureCleanerLevel.RECURSIVE, true);
        return new PartitionedSource<>(type, serializer, serialized, sizes, strategy);
    }

    /**
     * {@code records} dealt into {@code partitions} lists: record j goes to partition
     * {@code j mod partitions}, in order.
     */
    public static <T> List<List<T>> roundRobin(List<T> records, int partitions) {
        if (partitions < 1) {
            throw new IllegalArgumentException("partitions must be >= 1, got " + partitions);
        }
        List<List<T>> out = new ArrayList<>(partitions);
        for (int p = 0; p < partitions; p++) {
            out.add(new ArrayList<>(records.size() / partitions + 1));
        }
        for (int j = 0; j < records.size(); j++) {
            out.get(j % partitions).add(records.get(j));
        }
        return out;
    }

    /** The number of partitions. */
    public int partitionCount() {
        return sizes.length;
    }

    /** The number of records in partition {@code p}. */
    public int partitionSize(int p) {
        return sizes[p];
    }

    byte[] serialized(int p) {
        return serialized[p];
    }

    /** Throws if a restored split is not a position in this source's partitions. */
    void checkFits(PartitionSplit split) {
        int p = split.partition();
        boolean fits = p < sizes.length && split.position() <= sizes[p] && split.offset() <= serialized[p].length;
        if (!fits) {
            throw new IllegalArgumentException("Restored " + split + " is not a position in this PartitionedSource ("
                    + sizes.length + " partitions"
                    + (p < sizes.length
                            ? ", partition " + p + " has " + sizes[p] + " records in " + serialized[p].length + " bytes"
                            : "")
                    + "): restore state only into a job"
                    + " whose source has the same partitions.");
        }
    }

    @Override
    public Boundedness getBoundedness() {
        return Boundedness.BOUNDED;
    }

    @Override
    public TypeInformation<T> getProducedType() {
        return type;
    }

    @Override
    public SourceReader<T, PartitionSplit> createReader(SourceReaderContext context) {
        return new PartitionReader<>(
                context, this, serializer.duplicate(), rateLimit.createRateLimiter(context.currentParallelism()));
    }

    @Override
    public SplitEnumerator<PartitionSplit, List<PartitionSplit>> createEnumerator(
            SplitEnumeratorContext<PartitionSplit> context) {
        List<PartitionSplit> all = new ArrayList<>(sizes.length);
        for (int p = 0; p < sizes.length; p++) {
            all.add(PartitionSplit.unread(p));
        }
        return new PartitionEnumerator(context, all);
    }

    @Override
    public SplitEnumerator<PartitionSplit, List<PartitionSplit>> restoreEnumerator(
            SplitEnumeratorContext<PartitionSplit> context, List<PartitionSplit> unassigned) {
        for (PartitionSplit split : unassigned) {
            checkFits(split);
        }
        return new PartitionEnumerator(context, unassigned);
    }

    @Override
    public SimpleVersionedSerializer<PartitionSplit> getSplitSerializer() {
        return PartitionSplitSerializer.INSTANCE;
    }

    @Override
    public SimpleVersionedSerializer<List<PartitionSplit>> getEnumeratorCheckpointSerializer() {
        return UnassignedSplitsSerializer.INSTANCE;
    }
}
