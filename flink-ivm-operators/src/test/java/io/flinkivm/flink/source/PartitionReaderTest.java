package io.flinkivm.flink.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiter;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.metrics.groups.SourceReaderMetricGroup;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.util.SimpleUserCodeClassLoader;
import org.apache.flink.util.UserCodeClassLoader;
import org.junit.jupiter.api.Test;

/** {@link PartitionReader} without Flink's runtime: order, requests, state, restore, rate limits. */
class PartitionReaderTest {

    /** Partition p holds the strings "p:0", "p:1", ... of lengths 1, 3, 0, 5, 2. */
    static final List<Integer> SIZES = List.of(1, 3, 0, 5, 2);

    static List<List<Tuple2<Integer, String>>> partitions() {
        List<List<Tuple2<Integer, String>>> out = new ArrayList<>();
        for (int p = 0; p < SIZES.size(); p++) {
            List<Tuple2<Integer, String>> records = new ArrayList<>();
            for (int i = 0; i < SIZES.get(p); i++) {
                records.add(Tuple2.of(p, p + ":" + i + "x".repeat(i * 7)));
            }
            out.add(records);
        }
        return out;
    }

    static final PartitionedSource<Tuple2<Integer, String>> SOURCE =
            PartitionedSource.of(partitions(), Types.TUPLE(Types.INT, Types.STRING));

    @Test
    void readsItsSplitsInPartitionOrderAndAsksForMoreWhenOut() throws Exception {
        Context context = new Context(1, 2);
        SourceReader<Tuple2<Integer, String>, PartitionSplit> reader = SOURCE.createReader(context);
        Output<Tuple2<Integer, String>> out = new Output<>();
        reader.start();
        assertThat(context.requests).isEqualTo(1);
        assertThat(drain(reader, out)).isEqualTo(InputStatus.NOTHING_AVAILABLE);
        assertThat(context.requests).as("one request at a time").isEqualTo(1);

        reader.addSplits(List.of(PartitionSplit.unread(3), PartitionSplit.unread(1)));
        assertThat(drain(reader, out)).isEqualTo(InputStatus.NOTHING_AVAILABLE);
        List<Tuple2<Integer, String>> expected = new ArrayList<>(partitions().get(1));
        expected.addAll(partitions().get(3));
        assertThat(out.records).isEqualTo(expected);
        assertThat(context.requests).isEqualTo(2);

        reader.notifyNoMoreSplits();
        assertThat(drain(reader, out)).isEqualTo(InputStatus.END_OF_INPUT);
        assertThat(reader.snapshotState(1)).isEmpty();
    }

    @Test
    void emptyPartitionsAreSkippedAndTheNextOneRequested() throws Exception {
        Context context = new Context(0, 2);
        SourceReader<Tuple2<Integer, String>, PartitionSplit> reader = SOURCE.createReader(context);
        Output<Tuple2<Integer, String>> out = new Output<>();
        reader.start();
        reader.addSplits(List.of(PartitionSplit.unread(2)));
        assertThat(drain(reader, out)).isEqualTo(InputStatus.NOTHING_AVAILABLE);
        assertThat(out.records).isEmpty();
        assertThat(context.requests).isEqualTo(2);
        reader.addSplits(List.of(PartitionSplit.unread(4)));
        reader.notifyNoMoreSplits();
        assertThat(drain(reader, out)).isEqualTo(InputStatus.END_OF_INPUT);
        assertThat(out.records).isEqualTo(partitions().get(4));
    }

    /** Snapshot after every record; a reader restored from any of them emits exactly the rest. */
    @Test
    void aRestoredReaderContinuesRightAfterTheLastRecordEmitted() throws Exception {
        List<Tuple2<Integer, String>> all = new ArrayList<>(partitions().get(1));
        all.addAll(partitions().get(3));
        for (int stopAt = 0; stopAt <= all.size(); stopAt++) {
            Permits permits = new Permits(stopAt);
            SourceReader<Tuple2<Integer, String>, PartitionSplit> reader =
                    SOURCE.withRateLimit(p -> permits).createReader(new Context(1, 2));
            Output<Tuple2<Integer, String>> first = new Output<>();
            reader.start();
            reader.addSplits(List.of(PartitionSplit.unread(1), PartitionSplit.unread(3)));
            drain(reader, first);
            assertThat(first.records).isEqualTo(all.subList(0, stopAt));
            List<PartitionSplit> state = new ArrayList<>();
            for (PartitionSplit s : reader.snapshotState(stopAt)) {
                state.add(PartitionSplitSerializer.INSTANCE.deserialize(
                        PartitionSplitSerializer.VERSION, PartitionSplitSerializer.INSTANCE.serialize(s)));
            }
            assertThat(state)
                    .extracting(PartitionSplit::partition)
                    .isEqualTo(stopAt < 3 ? List.of(1, 3) : stopAt < all.size() ? List.of(3) : List.of());

            SourceReader<Tuple2<Integer, String>, PartitionSplit> restored = SOURCE.createReader(new Context(0, 1));
            Output<Tuple2<Integer, String>> second = new Output<>();
            restored.addSplits(state);
            restored.start();
            restored.notifyNoMoreSplits();
            assertThat(drain(restored, second)).isEqualTo(InputStatus.END_OF_INPUT);
            assertThat(second.records)
                    .as("restored after %d records", stopAt)
                    .isEqualTo(all.subList(stopAt, all.size()));
        }
    }

    @Test
    void perCheckpointLetsThroughItsShareOfRecordsPerCompletedCheckpoint() throws Exception {
        // 4 per checkpoint at parallelism 2: 2 per reader.
        SourceReader<Tuple2<Integer, String>, PartitionSplit> reader =
                SOURCE.withRateLimit(RateLimiterStrategy.perCheckpoint(4)).createReader(new Context(1, 2));
        Output<Tuple2<Integer, String>> out = new Output<>();
        reader.start();
        reader.addSplits(List.of(PartitionSplit.unread(1), PartitionSplit.unread(3)));
        reader.notifyNoMoreSplits();
        List<Integer> perCycle = new ArrayList<>();
        InputStatus status = InputStatus.NOTHING_AVAILABLE;
        for (long checkpoint = 1; status != InputStatus.END_OF_INPUT; checkpoint++) {
            int before = out.records.size();
            status = drain(reader, out);
            perCycle.add(out.records.size() - before);
            reader.notifyCheckpointComplete(checkpoint);
        }
        assertThat(perCycle).containsExactly(2, 2, 2, 2);
        assertThat(out.records).hasSize(8);
    }

    @Test
    void aLimiterThatStopsGrantingStopsTheReaderAtThatRecord() throws Exception {
        Permits permits = new Permits(3);
        SourceReader<Tuple2<Integer, String>, PartitionSplit> reader =
                SOURCE.withRateLimit(p -> permits).createReader(new Context(0, 1));
        Output<Tuple2<Integer, String>> out = new Output<>();
        reader.start();
        reader.addSplits(List.of(PartitionSplit.unread(3)));
        assertThat(drain(reader, out)).isEqualTo(InputStatus.NOTHING_AVAILABLE);
        assertThat(out.records).isEqualTo(partitions().get(3).subList(0, 3));
        assertThat(reader.isAvailable()).isNotDone();
        assertThat(reader.snapshotState(1)).extracting(PartitionSplit::position).containsExactly(3);
        permits.grant(10);
        assertThat(reader.isAvailable()).isDone();
        drain(reader, out);
        assertThat(out.records).isEqualTo(partitions().get(3));
    }

    @Test
    void aSplitThatIsNoPositionOfThisSourceIsRefused() {
        SourceReader<Tuple2<Integer, String>, PartitionSplit> reader = SOURCE.createReader(new Context(0, 1));
        assertThatThrownBy(() -> reader.addSplits(List.of(new PartitionSplit(5, 0, 0))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("PartitionSplit[partition=5, position=0, offset=0]")
                .hasMessageContaining("5 partitions")
                .hasMessageContaining("same partitions");
        assertThatThrownBy(() -> reader.addSplits(List.of(new PartitionSplit(1, 4, 10))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("partition 1 has 3 records");
    }

    /**
     * Polls while the reader is available; returns END_OF_INPUT, or NOTHING_AVAILABLE once it waits
     * for splits or permits.
     */
    static <T> InputStatus drain(SourceReader<T, PartitionSplit> reader, ReaderOutput<T> out) throws Exception {
        for (int i = 0; i < 100_000; i++) {
            if (!reader.isAvailable().isDone()) {
                return InputStatus.NOTHING_AVAILABLE;
            }
            InputStatus status = reader.pollNext(out);
            if (status == InputStatus.END_OF_INPUT) {
                return status;
            }
        }
        throw new AssertionError("reader spins without waiting");
    }

    /** A limiter granting a fixed number of permits, more only on {@link #grant}. */
    static final class Permits implements RateLimiter<SourceSplit>, Serializable {
        private static final long serialVersionUID = 1L;
        private int left;
        private transient CompletableFuture<Void> waiting;

        Permits(int left) {
            this.left = left;
        }

        @Override
        public CompletionStage<Void> acquire(int n) {
            if (left >= n) {
                left -= n;
                return CompletableFuture.completedFuture(null);
            }
            waiting = new CompletableFuture<>();
            return waiting;
        }

        void grant(int n) {
            left += n - 1;
            waiting.complete(null);
        }
    }

    static final class Output<T> implements ReaderOutput<T> {
        final List<T> records = new ArrayList<>();

        @Override
        public void collect(T record) {
            records.add(record);
        }

        @Override
        public void collect(T record, long timestamp) {
            records.add(record);
        }

        @Override
        public void emitWatermark(Watermark watermark) {}

        @Override
        public void markIdle() {}

        @Override
        public void markActive() {}

        @Override
        public SourceOutput<T> createOutputForSplit(String splitId) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void releaseOutputForSplit(String splitId) {}
    }

    static final class Context implements SourceReaderContext {
        final int subtask;
        final int parallelism;
        int requests;

        Context(int subtask, int parallelism) {
            this.subtask = subtask;
            this.parallelism = parallelism;
        }

        @Override
        public SourceReaderMetricGroup metricGroup() {
            return UnregisteredMetricsGroup.createSourceReaderMetricGroup();
        }

        @Override
        public Configuration getConfiguration() {
            return new Configuration();
        }

        @Override
        public String getLocalHostName() {
            return "localhost";
        }

        @Override
        public int getIndexOfSubtask() {
            return subtask;
        }

        @Override
        public int currentParallelism() {
            return parallelism;
        }

        @Override
        public void sendSplitRequest() {
            requests++;
        }

        @Override
        public void sendSourceEventToCoordinator(SourceEvent event) {
            throw new UnsupportedOperationException();
        }

        @Override
        public UserCodeClassLoader getUserCodeClassLoader() {
            return SimpleUserCodeClassLoader.create(getClass().getClassLoader());
        }
    }
}
