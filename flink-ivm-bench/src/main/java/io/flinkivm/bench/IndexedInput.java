package io.flinkivm.bench;

import io.flinkivm.bench.state.EndGate;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * A prepared input list as a parallel bounded source: a {@code DataGeneratorSource} over the indices
 * 0..n-1 at the environment's parallelism (each subtask reads one range of indices) whose record i is
 * the list's element i. The list stays in this JVM, registered under an id until {@link #close()}, and
 * the source's function carries only the id: the bench's jobs run on its own MiniCluster, in the same
 * JVM, so nothing is serialized into the job graph and a record costs a list read ({@code env.fromData}
 * would serialize every element into the graph and run at parallelism 1).
 */
final class IndexedInput<T> implements AutoCloseable {
    private static final Map<Long, List<?>> REGISTERED = new ConcurrentHashMap<>();
    private static final AtomicLong IDS = new AtomicLong();

    private final long id;
    private final int size;

    private IndexedInput(List<T> items) {
        this.id = IDS.incrementAndGet();
        this.size = items.size();
        REGISTERED.put(id, items);
    }

    /** Registers {@code items} (not copied: they must not change while a job reads them). */
    static <T> IndexedInput<T> of(List<T> items) {
        return new IndexedInput<>(items);
    }

    /**
     * The source named {@code name} at the environment's parallelism, followed by the environment's
     * {@link EndGate} if it has one.
     */
    DataStream<T> source(StreamExecutionEnvironment env, TypeInformation<T> type, String name) {
        return EndGate.source(
                env,
                new DataGeneratorSource<>(new At<T>(id), size, type),
                WatermarkStrategy.noWatermarks(),
                name,
                type);
    }

    /**
     * The list registered under {@code id}, for a function of a job that reads it in this JVM.
     *
     * @throws IllegalStateException if it is not (or no longer) registered
     */
    @SuppressWarnings("unchecked") // registered by IndexedInput<T> under this id
    static <T> List<T> registered(long id, Class<T> type) {
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
