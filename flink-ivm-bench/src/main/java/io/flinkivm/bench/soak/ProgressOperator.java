package io.flinkivm.bench.soak;

import io.flinkivm.bench.state.ThreadCpu;
import io.flinkivm.flink.IvmJob;
import io.flinkivm.flink.types.EpochEnd;
import io.flinkivm.flink.types.ResultRecord;
import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.api.java.tuple.Tuple3;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.TwoInputStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.types.Either;

/**
 * Runs after the sink (parallelism 1) and turns the watermarks the sink forwards into progress marks.
 * Its second input is the ingest subtasks' epoch ends ({@link IvmJob#epochs()}, broadcast): watermark w
 * reaches this operator only once every sink subtask has applied every insert of the epochs up to w,
 * so a mark {@code (kind, k, millis)} says when the whole job had fully processed k inserts, k being
 * the sum over the ingest subtasks of the inserts their epochs up to w hold. The job ends progress
 * epochs ({@code IvmOptions.withProgressEvery}) for these marks. Marks: {@link #START} at the first
 * watermark that covers inserts, {@link #TENTH} at the first one at or past each tenth of the stream
 * (the last tenth ends at the last watermark before the final one), {@link #SNAPSHOT} when the final
 * watermark passes (after the sink enumerated the final snapshot). Results pass through as Left.
 *
 * <p>At each mark it also takes the process's CPU time and, except for a last tenth that is only
 * known at the final watermark, the CPU time per thread group ({@link ThreadCpu}), and leaves them
 * in {@link #SAMPLES} under the mark's insert count: the soak runs on the embedded local Flink only,
 * in the JVM that reads them, and a reading taken when the mark arrives at the client would be late
 * by the collect sink's batching.
 */
final class ProgressOperator<T> extends AbstractStreamOperator<Either<ResultRecord<T>, Tuple3<Integer, Long, Long>>>
        implements TwoInputStreamOperator<
                ResultRecord<T>, EpochEnd, Either<ResultRecord<T>, Tuple3<Integer, Long, Long>>> {
    private static final long serialVersionUID = 2L;

    static final int START = 0;
    static final int TENTH = 1;
    static final int SNAPSHOT = 2;
    static final int TENTHS = 10;

    /** What the process had used at a mark. */
    record Sample(long processCpuNanos, Map<String, Long> threads) {}

    /** Samples of the running soak by mark (kind, inserts); cleared by {@link #clearSamples()}. */
    static final Map<String, Sample> SAMPLES = new ConcurrentHashMap<>();

    private final long total;
    /** Per ingest subtask, its inserts at the end of each epoch not yet passed (and the last passed one). */
    private transient Map<Integer, TreeMap<Long, Long>> ends;

    private transient long lastProgressCpu;
    private transient int tenthsDone;
    private transient long lastProgress;
    private transient long lastProgressMillis;
    private transient boolean started;
    private transient boolean lastMarked;

    ProgressOperator(long total) {
        this.total = total;
    }

    @Override
    public void open() throws Exception {
        super.open();
        ends = new HashMap<>();
    }

    @Override
    public void processElement1(StreamRecord<ResultRecord<T>> element) {
        output.collect(element.replace(Either.Left(element.getValue())));
    }

    @Override
    public void processElement2(StreamRecord<EpochEnd> element) {
        EpochEnd e = element.getValue();
        ends.computeIfAbsent(e.subtask(), s -> new TreeMap<>()).put(e.epoch(), e.inserts());
    }

    /** Inserts in the epochs up to {@code watermark} of every ingest subtask; forgets the older ends. */
    private long insertsUpTo(long watermark) {
        long k = 0;
        for (TreeMap<Long, Long> perEpoch : ends.values()) {
            Map.Entry<Long, Long> latest = perEpoch.floorEntry(watermark);
            if (latest != null) {
                k += latest.getValue();
                perEpoch.headMap(latest.getKey(), false).clear();
            }
        }
        return k;
    }

    @Override
    public void processWatermark(Watermark mark) throws Exception {
        long w = mark.getTimestamp();
        if (w >= 0) {
            long k = insertsUpTo(w);
            long now = System.currentTimeMillis();
            if (w == Long.MAX_VALUE) {
                if (!lastMarked && lastProgress > 0 && tenthsDone < TENTHS) {
                    SAMPLES.put(key(TENTH, lastProgress), new Sample(lastProgressCpu, Map.of()));
                    emit(TENTH, lastProgress, lastProgressMillis);
                    tenthsDone++;
                }
                emit(SNAPSHOT, k, now);
            } else if (k > lastProgress) {
                lastProgress = k;
                lastProgressMillis = now;
                lastProgressCpu = processCpuNanos();
                lastMarked = false;
                if (!started) {
                    started = true;
                    SAMPLES.put(key(START, k), new Sample(lastProgressCpu, ThreadCpu.sample()));
                    emit(START, k, now);
                    lastMarked = true;
                }
                while (tenthsDone < TENTHS && k >= boundary(tenthsDone + 1)) {
                    if (!lastMarked) {
                        SAMPLES.put(key(TENTH, k), new Sample(lastProgressCpu, ThreadCpu.sample()));
                        emit(TENTH, k, now);
                        lastMarked = true;
                    }
                    tenthsDone++;
                }
            }
        }
        super.processWatermark(mark);
    }

    static String key(int kind, long inserts) {
        return kind + "@" + inserts;
    }

    static void clearSamples() {
        SAMPLES.clear();
    }

    /** CPU time of this process, or -1 if the JVM does not tell. */
    static long processCpuNanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        return -1;
    }

    /** The insert count that ends tenth {@code i} (1 to 10). */
    private long boundary(int i) {
        return (total * i + TENTHS - 1) / TENTHS;
    }

    private void emit(int kind, long inserts, long millis) {
        output.collect(new StreamRecord<>(Either.Right(Tuple3.of(kind, inserts, millis))));
    }
}
