package io.flinkivm.bench;

import io.flinkivm.bench.state.EndGate;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.MathUtils;

/**
 * A prepared input list as a parallel bounded source: a {@code DataGeneratorSource} over the indices
 * 0..n-1 at the environment's parallelism (each subtask reads one range of indices) whose record i is
 * the list's element i. The list stays in this JVM, registered under an id until {@link #close()}, and
 * the source's function carries only the id: the bench's jobs run on its own MiniCluster, in the same
 * JVM, so nothing is serialized into the job graph and a record costs a list read ({@code env.fromData}
 * would serialize every element into the graph and run at parallelism 1).
 *
 * <p>A changelog is read by row instead ({@link #byRow}), as a CDC source keyed by row sends it: its
 * records are dealt into partitions by their row's hash, each partition keeps the list's order and is
 * read whole by one subtask ({@link OrderedPartitionSource}), so one row's changes keep their order at
 * any parallelism. A range of indices would not: at P > 1 a row's delete could overtake its insert.
 */
final class IndexedInput<T> implements AutoCloseable {
    private static final Map<Long, List<?>> REGISTERED = new ConcurrentHashMap<>();
    private static final AtomicLong IDS = new AtomicLong();

    private final long id;
    private final int size;
    /** Partition k is the registered list's indices {@code bounds[k] .. bounds[k + 1] - 1}; null: read by range. */
    private final int[] bounds;

    private IndexedInput(List<T> items, int[] bounds) {
        this.id = IDS.incrementAndGet();
        this.size = items.size();
        this.bounds = bounds;
        REGISTERED.put(id, items);
    }

    /** Registers {@code items} (not copied: they must not change while a job reads them), read by range. */
    static <T> IndexedInput<T> of(List<T> items) {
        return new IndexedInput<>(items, null);
    }

    /**
     * Registers {@code items} to be read by row: record i belongs to the row whose hash is
     * {@code rows[i]} (the same for every change of one row) and goes to partition
     * {@code murmurHash(rows[i]) mod partitions}; each partition holds its records in the list's order.
     *
     * @throws IllegalArgumentException if {@code rows} is not one hash per item, or {@code partitions < 1}
     */
    static <T> IndexedInput<T> byRow(List<T> items, int[] rows, int partitions) {
        if (rows.length != items.size() || partitions < 1) {
            throw new IllegalArgumentException("one row hash per item (" + rows.length + " for " + items.size()
                    + ") and at least one partition (" + partitions + ") are needed");
        }
        int[] partitionOf = new int[rows.length];
        for (int i = 0; i < rows.length; i++) {
            partitionOf[i] = MathUtils.murmurHash(rows[i]) % partitions;
        }
        List<T> ordered = new ArrayList<>(items.size());
        int[] bounds = new int[partitions + 1];
        for (int k = 0; k < partitions; k++) {
            for (int i = 0; i < partitionOf.length; i++) {
                if (partitionOf[i] == k) {
                    ordered.add(items.get(i));
                }
            }
            bounds[k + 1] = ordered.size();
        }
        return new IndexedInput<>(ordered, bounds);
    }

    /**
     * {@code items}, one per record of {@code stream} in its order: a changelog by row into
     * {@code parallelism} partitions ({@link InsertStream#rows()}), inserts by range.
     */
    static <T> IndexedInput<T> of(List<T> items, InsertStream stream, int parallelism) {
        return stream.isChangelog() ? byRow(items, stream.rows(), parallelism) : of(items);
    }

    /**
     * The source named {@code name} at the environment's parallelism, followed by the environment's
     * {@link EndGate} if it has one.
     */
    DataStream<T> source(StreamExecutionEnvironment env, TypeInformation<T> type, String name) {
        if (bounds != null) {
            return EndGate.source(
                    env, new OrderedPartitionSource<>(id, bounds, type), WatermarkStrategy.noWatermarks(), name, type);
        }
        return EndGate.source(
                env,
                new DataGeneratorSource<>(new At<T>(id), size, type),
                WatermarkStrategy.noWatermarks(),
                name,
                type);
    }

    /** The numbers 0 .. n-1 as a list that stores none of them: a source of a stream's indices. */
    static List<Long> indices(int n) {
        if (n < 0) {
            throw new IllegalArgumentException("n must be >= 0, got " + n);
        }
        return new AbstractList<>() {
            @Override
            public Long get(int index) {
                return (long) Objects.checkIndex(index, n);
            }

            @Override
            public int size() {
                return n;
            }
        };
    }

    /**
     * This list's element i for each index i of {@code indices}, handed out by a function chained to
     * them ({@code map}, at their parallelism): how a system gets its prebuilt records from a source of
     * the stream's indices ({@link #indices}).
     */
    DataStream<T> at(DataStream<Long> indices, TypeInformation<T> type, String name) {
        return indices.map(new Lookup<T>(id)).returns(type).name(name);
    }

    /**
     * The list registered under {@code id} (in reading order), for a function of a job that reads it in this JVM.
     *
     * @throws IllegalStateException if it is not (or no longer) registered
     */
    @SuppressWarnings("unchecked") // registered by IndexedInput<T> under this id
    static <T> List<T> items(long id) {
        List<?> items = REGISTERED.get(id);
        if (items == null) {
            throw new IllegalStateException(notRegistered(id));
        }
        return (List<T>) items;
    }

    private static String notRegistered(long id) {
        return "bench input " + id + " is not registered in this JVM: the bench's jobs"
                + " read their input from the JVM that built them (its MiniCluster), and only until the job has ended";
    }

    /** Whether the input of {@code id} is still registered (for tests). */
    static boolean registered(long id) {
        return REGISTERED.containsKey(id);
    }

    long id() {
        return id;
    }

    @Override
    public void close() {
        REGISTERED.remove(id);
    }

    /** Element i of a registered list for index i. */
    static final class Lookup<T> extends RichMapFunction<Long, T> {
        private static final long serialVersionUID = 1L;
        private final long id;
        private transient List<T> items;

        Lookup(long id) {
            this.id = id;
        }

        @Override
        public void open(OpenContext context) {
            items = items(id);
        }

        @Override
        public T map(Long index) {
            return items.get(index.intValue());
        }
    }

    /** Record i of a registered list. */
    static final class At<T> implements GeneratorFunction<Long, T> {
        private static final long serialVersionUID = 1L;
        private final long id;
        private transient List<T> items;

        At(long id) {
            this.id = id;
        }

        @Override
        @SuppressWarnings("unchecked") // registered by IndexedInput<T> under this id
        public void open(SourceReaderContext context) {
            items = (List<T>) REGISTERED.get(id);
        }

        @Override
        public T map(Long index) {
            // Checked here rather than in open(): a reader that fails before its split arrives is reported as a
            // lost split assignment, without this message.
            if (items == null) {
                throw new IllegalStateException(notRegistered(id));
            }
            return items.get(index.intValue());
        }
    }
}
