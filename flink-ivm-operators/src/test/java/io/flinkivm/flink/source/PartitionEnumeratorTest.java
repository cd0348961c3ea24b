package io.flinkivm.flink.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.connector.source.SplitsAssignment;
import org.apache.flink.api.connector.source.mocks.MockSplitEnumeratorContext;
import org.junit.jupiter.api.Test;

/** {@link PartitionEnumerator}: which split goes to which subtask, on request, and after a restore. */
class PartitionEnumeratorTest {

    private static List<PartitionSplit> unread(int partitions) {
        List<PartitionSplit> all = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            all.add(PartitionSplit.unread(p));
        }
        return all;
    }

    /** The partitions of each assignment, in order, that went to {@code subtask}. */
    private static List<Integer> assigned(MockSplitEnumeratorContext<PartitionSplit> context, int subtask) {
        List<Integer> out = new ArrayList<>();
        for (SplitsAssignment<PartitionSplit> a : context.getSplitsAssignmentSequence()) {
            for (PartitionSplit s : a.assignment().getOrDefault(subtask, List.of())) {
                out.add(s.partition());
            }
        }
        return out;
    }

    @Test
    void eachRequestGetsTheSmallestUnassignedPartitionOfTheSubtaskThenNoMoreSplits() throws Exception {
        try (MockSplitEnumeratorContext<PartitionSplit> context = new MockSplitEnumeratorContext<>(3)) {
            PartitionEnumerator e = new PartitionEnumerator(context, unread(7));
            e.start();
            e.handleSplitRequest(1, "host");
            e.handleSplitRequest(0, "host");
            e.handleSplitRequest(1, "host");
            assertThat(assigned(context, 1)).containsExactly(1, 4);
            assertThat(assigned(context, 0)).containsExactly(0);
            assertThat(e.snapshotState(1)).extracting(PartitionSplit::partition).containsExactly(2, 3, 5, 6);

            e.handleSplitRequest(1, "host");
            e.handleSplitRequest(1, "host");
            assertThat(assigned(context, 1)).containsExactly(1, 4);
            assertThat(context.hasNoMoreSplits(1)).isTrue();
            assertThat(context.hasNoMoreSplits(0)).isFalse();
            assertThat(context.getSplitsAssignmentSequence())
                    .allSatisfy(a -> assertThat(a.assignment().values())
                            .allSatisfy(splits -> assertThat(splits).hasSize(1).allMatch(s -> s.position() == 0)));
        }
    }

    @Test
    void aSubtaskWithoutPartitionsIsToldAtOnce() throws Exception {
        try (MockSplitEnumeratorContext<PartitionSplit> context = new MockSplitEnumeratorContext<>(4)) {
            PartitionEnumerator e = new PartitionEnumerator(context, unread(2));
            e.handleSplitRequest(3, "host");
            assertThat(context.hasNoMoreSplits(3)).isTrue();
            assertThat(context.getSplitsAssignmentSequence()).isEmpty();
        }
        try (MockSplitEnumeratorContext<PartitionSplit> context = new MockSplitEnumeratorContext<>(2)) {
            PartitionEnumerator e = new PartitionEnumerator(context, List.of());
            e.handleSplitRequest(0, "host");
            assertThat(context.hasNoMoreSplits(0)).isTrue();
            assertThat(e.snapshotState(1)).isEmpty();
        }
    }

    @Test
    void splitsGivenBackGoToTheSameSubtaskAgainInPartitionOrder() throws Exception {
        try (MockSplitEnumeratorContext<PartitionSplit> context = new MockSplitEnumeratorContext<>(2)) {
            PartitionEnumerator e = new PartitionEnumerator(context, unread(6));
            e.handleSplitRequest(0, "host");
            e.handleSplitRequest(0, "host");
            e.addSplitsBack(List.of(PartitionSplit.unread(2), PartitionSplit.unread(0)), 0);
            e.handleSplitRequest(0, "host");
            e.handleSplitRequest(0, "host");
            e.handleSplitRequest(0, "host");
            assertThat(assigned(context, 0)).containsExactly(0, 2, 0, 2, 4);
            assertThatThrownBy(() -> e.addSplitsBack(List.of(PartitionSplit.unread(1)), 1))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("Partition 1 is unassigned twice");
        }
    }

    /** The unassigned partitions of a snapshot, restored at parallelism 3, go to p mod 3. */
    @Test
    void restoredAtAnotherParallelismAssignsByTheNewOne() throws Exception {
        List<PartitionSplit> state;
        try (MockSplitEnumeratorContext<PartitionSplit> context = new MockSplitEnumeratorContext<>(2)) {
            PartitionEnumerator e = new PartitionEnumerator(context, unread(8));
            e.handleSplitRequest(0, "host");
            e.handleSplitRequest(1, "host");
            state = e.snapshotState(7);
        }
        List<PartitionSplit> restored = UnassignedSplitsSerializer.INSTANCE.deserialize(
                PartitionSplitSerializer.VERSION, UnassignedSplitsSerializer.INSTANCE.serialize(state));
        try (MockSplitEnumeratorContext<PartitionSplit> context = new MockSplitEnumeratorContext<>(3)) {
            PartitionEnumerator e = new PartitionEnumerator(context, restored);
            for (int round = 0; round < 3; round++) {
                for (int subtask = 0; subtask < 3; subtask++) {
                    e.handleSplitRequest(subtask, "host");
                }
            }
            assertThat(assigned(context, 0)).containsExactly(3, 6);
            assertThat(assigned(context, 1)).containsExactly(4, 7);
            assertThat(assigned(context, 2)).containsExactly(2, 5);
            assertThat(e.snapshotState(8)).isEmpty();
        }
    }
}
