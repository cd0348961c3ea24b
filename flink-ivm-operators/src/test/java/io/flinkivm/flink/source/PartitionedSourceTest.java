package io.flinkivm.flink.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.flink.source.PartitionReaderTest.Context;
import io.flinkivm.flink.source.PartitionReaderTest.Output;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.mocks.MockSplitEnumeratorContext;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.api.java.typeutils.PojoTypeInfo;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.util.InstantiationUtil;
import org.junit.jupiter.api.Test;

/** {@link PartitionedSource}: building, the helpers, and records held in the type's serialized form. */
class PartitionedSourceTest {

    /** A POJO that is not {@link java.io.Serializable}: the source holds it serialized by its TypeSerializer. */
    public static final class Point {
        public int x;
        public String label;

        public Point() {}

        Point(int x, String label) {
            this.x = x;
            this.label = label;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Point p && p.x == x && p.label.equals(label);
        }

        @Override
        public int hashCode() {
            return 31 * x + label.hashCode();
        }

        @Override
        public String toString() {
            return label + "@" + x;
        }
    }

    @Test
    void roundRobinDealsRecordsInOrder() {
        assertThat(PartitionedSource.roundRobin(List.of(0, 1, 2, 3, 4, 5, 6), 3))
                .isEqualTo(List.of(List.of(0, 3, 6), List.of(1, 4), List.of(2, 5)));
        assertThat(PartitionedSource.roundRobin(List.of(7), 3)).isEqualTo(List.of(List.of(7), List.of(), List.of()));
        assertThat(PartitionedSource.roundRobin(List.of(), 1)).isEqualTo(List.of(List.of()));
        assertThatThrownBy(() -> PartitionedSource.roundRobin(List.of(1), 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("partitions must be >= 1, got 0");
    }

    @Test
    void knowsItsPartitionsAndIsBounded() {
        PartitionedSource<Long> source =
                PartitionedSource.of(List.of(List.of(1L, 2L), List.of(), List.of(3L)), Types.LONG);
        assertThat(source.partitionCount()).isEqualTo(3);
        assertThat(List.of(source.partitionSize(0), source.partitionSize(1), source.partitionSize(2)))
                .containsExactly(2, 0, 1);
        assertThat(source.getBoundedness()).isEqualTo(Boundedness.BOUNDED);
        assertThat(source.getProducedType()).isEqualTo(Types.LONG);
        assertThat(PartitionedSource.of(List.of(), Types.LONG).partitionCount()).isZero();
    }

    @Test
    void anyTypeWithTypeInformationRoundTripsThroughTheJavaSerializedSource() throws Exception {
        TypeInformation<Point> type = TypeInformation.of(Point.class);
        assertThat(type).isInstanceOf(PojoTypeInfo.class);
        List<Point> points = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            points.add(new Point(i, "p" + i));
        }
        PartitionedSource<Point> source =
                InstantiationUtil.clone(PartitionedSource.of(PartitionedSource.roundRobin(points, 2), type)
                        .withRateLimit(RateLimiterStrategy.perSecond(1e6)));
        SourceReader<Point, PartitionSplit> reader = source.createReader(new Context(1, 2));
        Output<Point> out = new Output<>();
        reader.start();
        reader.addSplits(List.of(PartitionSplit.unread(1)));
        reader.notifyNoMoreSplits();
        while (reader.pollNext(out) != InputStatus.END_OF_INPUT) {
            reader.isAvailable().get();
        }
        assertThat(out.records)
                .isEqualTo(PartitionedSource.roundRobin(points, 2).get(1));
        reader.close();
    }

    @Test
    void withRateLimitCopies() {
        PartitionedSource<Long> source = PartitionedSource.of(List.of(List.of(1L)), Types.LONG);
        assertThat(source.withRateLimit(RateLimiterStrategy.perCheckpoint(1))).isNotSameAs(source);
        assertThatThrownBy(() -> source.withRateLimit(null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("RateLimiterStrategy.noOp()");
    }

    @Test
    void nullPartitionsAndRecordsAreRefusedWithTheirPlace() {
        assertThatThrownBy(() -> PartitionedSource.of(Arrays.asList(List.of(1L), null), Types.LONG))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Partition 1 is null");
        assertThatThrownBy(() -> PartitionedSource.of(List.of(Arrays.asList(1L, 2L, null)), Types.LONG))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Record 2 of partition 0 is null");
        assertThatThrownBy(() -> PartitionedSource.of(null, Types.LONG)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void enumeratorStateThatIsNoPositionOfThisSourceIsRefused() throws Exception {
        PartitionedSource<Long> source = PartitionedSource.of(List.of(List.of(1L, 2L)), Types.LONG);
        try (MockSplitEnumeratorContext<PartitionSplit> context = new MockSplitEnumeratorContext<>(1)) {
            assertThatThrownBy(() -> source.restoreEnumerator(context, List.of(PartitionSplit.unread(1))))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("(1 partitions)");
            assertThat(source.restoreEnumerator(context, List.of(PartitionSplit.unread(0)))
                            .snapshotState(1))
                    .containsExactly(PartitionSplit.unread(0));
            assertThat(source.createEnumerator(context).snapshotState(1)).containsExactly(PartitionSplit.unread(0));
        }
    }
}
