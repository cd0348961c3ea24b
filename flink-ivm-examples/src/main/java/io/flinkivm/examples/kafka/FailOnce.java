package io.flinkivm.examples.kafka;

import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.state.CheckpointListener;

/**
 * A test hook ({@code kafka --fail-once-after N}): a real task failure between checkpoints. In the job's
 * first attempt it passes each record on after a pause of a millisecond (so that checkpoints complete while
 * records still flow), and once {@code after} records have passed since the first completed checkpoint it
 * throws: the job restarts from the latest checkpoint and replays from there, while the sinks' open
 * transactions are aborted. Later attempts pass records on untouched. Not for production jobs.
 */
final class FailOnce<E> extends RichMapFunction<E, E> implements CheckpointListener {
    private static final long serialVersionUID = 1L;

    /** Failures injected in this JVM (the embedded Flink runs here): the evidence a test asks for. */
    static final AtomicInteger INJECTED = new AtomicInteger();

    private final long after;
    private transient boolean armed;
    private transient boolean checkpointed;
    private transient long since;

    FailOnce(long after) {
        if (after < 1) {
            throw new IllegalArgumentException("after must be >= 1, got " + after);
        }
        this.after = after;
    }

    @Override
    public void open(OpenContext context) {
        armed = getRuntimeContext().getTaskInfo().getAttemptNumber() == 0;
    }

    @Override
    public E map(E record) throws Exception {
        if (armed) {
            Thread.sleep(1);
            if (checkpointed && ++since >= after) {
                armed = false;
                INJECTED.incrementAndGet();
                throw new IllegalStateException("injected failure (--fail-once-after " + after + "): " + since
                        + " records after the first completed checkpoint");
            }
        }
        return record;
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {
        checkpointed = true;
    }
}
