package io.flinkivm.bench.state;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSource;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.streaming.api.operators.ProcessOperator;
import org.apache.flink.streaming.api.watermark.Watermark;

/**
 * Holds a bounded job open at the end of its input, so that one checkpoint can be taken of its final
 * state while every operator still runs (the state of an operator that has finished is not part of a
 * checkpoint), and tells when the job's results are complete.
 *
 * <p>The gate holds each source ({@link #source}): when its input ends, each source subtask sends
 * the final watermark and then waits, still taking checkpoints, until {@link #release()}. Every
 * operator passes the final watermark on after the records before it: when each end-aware sink
 * ({@link #process}) has seen it, every record has been processed and every result has arrived
 * ({@link #done()}). A checkpoint taken then holds the final state and no record in flight, and on
 * RocksDB it flushes every memtable first, so the SST files hold all of it.
 *
 * <p>A gate lives in this JVM and is found by its id in the job's configuration ({@link #ID}): it
 * works for jobs on a MiniCluster or the embedded local Flink of the same JVM.
 */
public final class EndGate implements AutoCloseable {
    /** The job configuration entry that names the gate of a job's environment. */
    public static final ConfigOption<Long> ID = ConfigOptions.key("flinkivm.end-gate")
            .longType()
            .noDefaultValue()
            .withDescription("flink-ivm's bench and soak: the end gate of the job (same JVM only)");

    private static final Map<Long, EndGate> GATES = new ConcurrentHashMap<>();
    private static final AtomicLong IDS = new AtomicLong();

    private final long id;
    private final AtomicInteger gates = new AtomicInteger();
    private final AtomicInteger waiting = new AtomicInteger();
    private final AtomicInteger sinks = new AtomicInteger();
    private final AtomicInteger ended = new AtomicInteger();
    private final CompletableFuture<Long> done = new CompletableFuture<>();
    private final CompletableFuture<Void> released = new CompletableFuture<>();

    private EndGate() {
        this.id = IDS.incrementAndGet();
        GATES.put(id, this);
    }

    /** A new gate; put it into a job's configuration with {@link #configure}. */
    public static EndGate create() {
        return new EndGate();
    }

    /** Names this gate in {@code config}, which must become the job's environment's configuration. */
    public void configure(Configuration config) {
        config.set(ID, id);
    }

    /** The gate named in {@code config}, or null if it names none (or one that was closed). */
    public static EndGate of(ReadableConfig config) {
        return config.getOptional(ID).map(GATES::get).orElse(null);
    }

    private static EndGate of(StreamExecutionEnvironment env) {
        return of(env.getConfiguration());
    }

    /**
     * {@code source} at the environment's parallelism, held by the environment's gate at the end of
     * its input if it has one: after its last record each subtask sends the final watermark and
     * waits (still taking checkpoints) until the gate is released.
     */
    public static <T, S extends SourceSplit, E> DataStreamSource<T> source(
            StreamExecutionEnvironment env,
            Source<T, S, E> source,
            WatermarkStrategy<T> watermarks,
            String name,
            TypeInformation<T> type) {
        EndGate gate = of(env);
        if (gate == null) {
            return env.fromSource(source, watermarks, name, type);
        }
        gate.gates.addAndGet(env.getParallelism());
        return env.fromSource(new GatedSource<>(source, gate.id), watermarks, name, type);
    }

    /**
     * {@code function} over {@code input} at {@code parallelism}, as {@code input.process(function)}
     * would run it, also telling the environment's gate when it has seen the end of its input; a sink
     * of the job's results.
     */
    public static <I, O> SingleOutputStreamOperator<O> process(
            DataStream<I> input, ProcessFunction<I, O> function, TypeInformation<O> type, int parallelism) {
        EndGate gate = of(input.getExecutionEnvironment());
        if (gate == null) {
            return input.process(function, type).setParallelism(parallelism);
        }
        gate.sinks.addAndGet(parallelism);
        return input.transform("process", type, new EndAwareProcess<>(function, gate.id))
                .setParallelism(parallelism);
    }

    private static int parallelism(DataStream<?> stream) {
        int p = stream.getParallelism();
        return p > 0 ? p : stream.getExecutionEnvironment().getParallelism();
    }

    /**
     * Completes with {@link System#nanoTime()} when every source has reached the gate and every
     * end-aware sink has seen the end of its input.
     */
    public CompletableFuture<Long> done() {
        return done;
    }

    /** Whether {@link #done()} has completed. */
    public boolean isDone() {
        return done.isDone();
    }

    /** Lets the sources finish: the job ends. */
    public void release() {
        released.complete(null);
    }

    /** Releases the gate and forgets it. */
    @Override
    public void close() {
        release();
        GATES.remove(id);
    }

    @Override
    public String toString() {
        return "end gate " + id + ": " + waiting.get() + " of " + gates.get() + " sources at the end, " + ended.get()
                + " of " + sinks.get() + " sinks ended" + (released.isDone() ? ", released" : "");
    }

    /** A source subtask reached the end of its input; the future completes on release. */
    private CompletableFuture<Void> arrive() {
        waiting.incrementAndGet();
        check();
        return released;
    }

    private void sinkEnded() {
        ended.incrementAndGet();
        check();
    }

    private void check() {
        if (waiting.get() >= gates.get() && ended.get() >= sinks.get()) {
            done.complete(System.nanoTime());
        }
    }

    /** A source whose readers wait at the end of their input until the gate is released. */
    static final class GatedSource<T, S extends SourceSplit, E> implements Source<T, S, E> {
        private static final long serialVersionUID = 1L;
        private final Source<T, S, E> source;
        private final long gateId;

        GatedSource(Source<T, S, E> source, long gateId) {
            this.source = source;
            this.gateId = gateId;
        }

        @Override
        public Boundedness getBoundedness() {
            return source.getBoundedness();
        }

        @Override
        public SplitEnumerator<S, E> createEnumerator(SplitEnumeratorContext<S> context) throws Exception {
            return source.createEnumerator(context);
        }

        @Override
        public SplitEnumerator<S, E> restoreEnumerator(SplitEnumeratorContext<S> context, E checkpoint)
                throws Exception {
            return source.restoreEnumerator(context, checkpoint);
        }

        @Override
        public SimpleVersionedSerializer<S> getSplitSerializer() {
            return source.getSplitSerializer();
        }

        @Override
        public SimpleVersionedSerializer<E> getEnumeratorCheckpointSerializer() {
            return source.getEnumeratorCheckpointSerializer();
        }

        @Override
        public SourceReader<T, S> createReader(SourceReaderContext context) throws Exception {
            return new GatedReader<>(source.createReader(context), gateId);
        }
    }

    /**
     * A reader that, when its input ends, sends the final watermark and reports nothing available
     * (its task keeps taking checkpoints) until the gate is released; then it ends.
     */
    static final class GatedReader<T, S extends SourceSplit> implements SourceReader<T, S> {
        private final SourceReader<T, S> reader;
        private final long gateId;
        private CompletableFuture<Void> released;
        private boolean ended;

        GatedReader(SourceReader<T, S> reader, long gateId) {
            this.reader = reader;
            this.gateId = gateId;
        }

        @Override
        public void start() {
            reader.start();
        }

        @Override
        public InputStatus pollNext(ReaderOutput<T> output) throws Exception {
            if (released != null) {
                return released.isDone() ? InputStatus.END_OF_INPUT : InputStatus.NOTHING_AVAILABLE;
            }
            InputStatus status = reader.pollNext(output);
            if (status != InputStatus.END_OF_INPUT) {
                return status;
            }
            EndGate gate = GATES.get(gateId);
            if (gate == null) {
                return status;
            }
            output.emitWatermark(new org.apache.flink.api.common.eventtime.Watermark(Long.MAX_VALUE));
            released = gate.arrive();
            return released.isDone() ? InputStatus.END_OF_INPUT : InputStatus.NOTHING_AVAILABLE;
        }

        @Override
        public List<S> snapshotState(long checkpointId) {
            return reader.snapshotState(checkpointId);
        }

        @Override
        public CompletableFuture<Void> isAvailable() {
            return released != null ? released : reader.isAvailable();
        }

        @Override
        public void addSplits(List<S> splits) {
            reader.addSplits(splits);
        }

        @Override
        public void notifyNoMoreSplits() {
            reader.notifyNoMoreSplits();
        }

        @Override
        public void handleSourceEvents(SourceEvent event) {
            reader.handleSourceEvents(event);
        }

        @Override
        public void notifyCheckpointComplete(long checkpointId) throws Exception {
            reader.notifyCheckpointComplete(checkpointId);
        }

        @Override
        public void close() throws Exception {
            reader.close();
        }
    }

    /** A process function's operator that tells the gate when the final watermark reached it. */
    static final class EndAwareProcess<I, O> extends ProcessOperator<I, O> {
        private static final long serialVersionUID = 1L;
        private final long gateId;
        private transient boolean ended;

        EndAwareProcess(ProcessFunction<I, O> function, long gateId) {
            super(function);
            this.gateId = gateId;
        }

        @Override
        public void processWatermark(Watermark mark) throws Exception {
            super.processWatermark(mark);
            if (mark.getTimestamp() == Long.MAX_VALUE && !ended) {
                ended = true;
                EndGate gate = GATES.get(gateId);
                if (gate != null) {
                    gate.sinkEnded();
                }
            }
        }
    }
}
