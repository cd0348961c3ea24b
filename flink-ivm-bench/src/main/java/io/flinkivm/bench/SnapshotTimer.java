package io.flinkivm.bench;

import io.flinkivm.flink.types.ResultRecord;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * Chained to the flink-ivm sink: how long the sink took for its last trigger, from the watermark it
 * passed on before the trigger to the trigger's end marker, with the trigger's rows and the sum of
 * their payloads, in accumulators. The sink passes a watermark on after it has applied every delta of
 * the epochs up to it, and emits a trigger's rows then its end marker as it enumerates them; so when
 * the last epoch that holds inserts ends without a trigger and the next one (empty) ends with one,
 * the time between the two (wall, and the task thread's CPU) is the trigger's: finding the groups with results, enumerating them with
 * payload recovery, and emitting the rows. Writes nothing downstream.
 */
final class SnapshotTimer extends AbstractStreamOperator<Void>
        implements OneInputStreamOperator<ResultRecord<Long>, Void> {
    private static final long serialVersionUID = 1L;

    static final String NANOS = "snapshot-timer-nanos";
    /** The task thread's CPU time over the same span (the sink and this operator share the thread); -1 if unknown. */
    static final String CPU_NANOS = "snapshot-timer-cpu-nanos";

    static final String ROWS = "snapshot-timer-rows";
    static final String CHECKSUM = "snapshot-timer-checksum";

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private transient long lastWatermark;
    private transient long lastWatermarkCpu;
    private transient long rows;
    private transient long checksum;
    private transient LongCounter nanosCounter;
    private transient LongCounter cpuCounter;
    private transient LongCounter rowsCounter;
    private transient LongCounter checksumCounter;

    @Override
    public void open() throws Exception {
        super.open();
        nanosCounter = new LongCounter();
        cpuCounter = new LongCounter();
        rowsCounter = new LongCounter();
        checksumCounter = new LongCounter();
        getRuntimeContext().addAccumulator(NANOS, nanosCounter);
        getRuntimeContext().addAccumulator(CPU_NANOS, cpuCounter);
        getRuntimeContext().addAccumulator(ROWS, rowsCounter);
        getRuntimeContext().addAccumulator(CHECKSUM, checksumCounter);
        lastWatermark = System.nanoTime();
        lastWatermarkCpu = cpu();
    }

    private static long cpu() {
        return THREADS.isCurrentThreadCpuTimeSupported() ? THREADS.getCurrentThreadCpuTime() : -1;
    }

    @Override
    public void processElement(StreamRecord<ResultRecord<Long>> element) {
        ResultRecord<Long> r = element.getValue();
        if (!r.isEnd()) {
            rows++;
            checksum += r.payload();
            return;
        }
        // Only the last trigger's figures are kept: each end marker replaces the previous ones.
        nanosCounter.resetLocal();
        cpuCounter.resetLocal();
        rowsCounter.resetLocal();
        checksumCounter.resetLocal();
        nanosCounter.add(System.nanoTime() - lastWatermark);
        long cpu = cpu();
        cpuCounter.add(cpu < 0 || lastWatermarkCpu < 0 ? -1 : cpu - lastWatermarkCpu);
        rowsCounter.add(rows);
        checksumCounter.add(checksum);
        rows = 0;
        checksum = 0;
    }

    @Override
    public void processWatermark(Watermark mark) throws Exception {
        lastWatermark = System.nanoTime();
        lastWatermarkCpu = cpu();
        super.processWatermark(mark);
    }
}
