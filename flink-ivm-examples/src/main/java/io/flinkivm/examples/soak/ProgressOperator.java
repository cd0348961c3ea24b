package io.flinkivm.examples.soak;

import io.flinkivm.flink.ResultRecord;
import io.flinkivm.flink.runtime.EventTime;
import org.apache.flink.api.java.tuple.Tuple3;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.types.Either;

/**
 * Runs after the sink (parallelism 1) and turns the watermarks the sink forwards into progress marks.
 * A progress watermark 2k reaches this operator only once every sink subtask has processed every delta
 * of the first k inserts (see {@link EventTime}), so a mark {@code (kind, k, millis)} says when the
 * whole job had fully processed k inserts. Marks: {@link #START} at the first progress watermark,
 * {@link #TENTH} at the first one at or past each tenth of the stream (the last tenth ends at the last
 * progress watermark before the final snapshot), {@link #SNAPSHOT} when the final snapshot's trigger
 * passes (after the sink enumerated it). Results pass through as Left.
 */
final class ProgressOperator<T> extends AbstractStreamOperator<Either<ResultRecord<T>, Tuple3<Integer, Long, Long>>>
        implements OneInputStreamOperator<ResultRecord<T>, Either<ResultRecord<T>, Tuple3<Integer, Long, Long>>> {
    private static final long serialVersionUID = 1L;

    static final int START = 0;
    static final int TENTH = 1;
    static final int SNAPSHOT = 2;
    static final int TENTHS = 10;

    private final long total;
    private transient int tenthsDone;
    private transient long lastProgress;
    private transient long lastProgressMillis;
    private transient boolean started;
    private transient boolean lastMarked;

    ProgressOperator(long total) {
        this.total = total;
    }

    @Override
    public void processElement(StreamRecord<ResultRecord<T>> element) {
        output.collect(element.replace(Either.Left(element.getValue())));
    }

    @Override
    public void processWatermark(Watermark mark) throws Exception {
        long w = mark.getTimestamp();
        if (w != Long.MAX_VALUE && w >= 0) {
            long k = EventTime.inserts(w);
            long now = System.currentTimeMillis();
            if (EventTime.isTrigger(w)) {
                if (!lastMarked && lastProgress > 0 && tenthsDone < TENTHS) {
                    emit(TENTH, lastProgress, lastProgressMillis);
                    tenthsDone++;
                }
                emit(SNAPSHOT, k, now);
            } else if (k > lastProgress) {
                lastProgress = k;
                lastProgressMillis = now;
                lastMarked = false;
                if (!started) {
                    started = true;
                    emit(START, k, now);
                    lastMarked = true;
                }
                while (tenthsDone < TENTHS && k >= boundary(tenthsDone + 1)) {
                    if (!lastMarked) {
                        emit(TENTH, k, now);
                        lastMarked = true;
                    }
                    tenthsDone++;
                }
            }
        }
        super.processWatermark(mark);
    }

    /** The insert count that ends tenth {@code i} (1 to 10). */
    private long boundary(int i) {
        return (total * i + TENTHS - 1) / TENTHS;
    }

    private void emit(int kind, long inserts, long millis) {
        output.collect(new StreamRecord<>(Either.Right(Tuple3.of(kind, inserts, millis))));
    }
}
