package io.flinkivm.flink.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link PartitionSplitSerializer} and {@link UnassignedSplitsSerializer}: round trips, fixed bytes, versions. */
class PartitionSplitSerializerTest {

    @Test
    void splitRoundTrips() throws IOException {
        PartitionSplitSerializer s = PartitionSplitSerializer.INSTANCE;
        for (PartitionSplit split : List.of(
                new PartitionSplit(0, 0, 0),
                new PartitionSplit(3, 7, 91),
                new PartitionSplit(Integer.MAX_VALUE, Integer.MAX_VALUE, Integer.MAX_VALUE))) {
            assertThat(s.deserialize(s.getVersion(), s.serialize(split))).isEqualTo(split);
        }
    }

    /** Savepoints hold these bytes: version 2 must keep reading them. */
    @Test
    void splitVersionTwoBytesAreFixed() throws IOException {
        byte[] bytes = {0, 0, 0, 2, 0, 0, 0, 5, 0, 0, 0, 17};
        assertThat(PartitionSplitSerializer.INSTANCE.getVersion()).isEqualTo(2);
        assertThat(PartitionSplitSerializer.INSTANCE.serialize(new PartitionSplit(2, 5, 17)))
                .isEqualTo(bytes);
        assertThat(PartitionSplitSerializer.INSTANCE.deserialize(2, bytes)).isEqualTo(new PartitionSplit(2, 5, 17));
    }

    @Test
    void unassignedSplitsRoundTrip() throws IOException {
        UnassignedSplitsSerializer s = UnassignedSplitsSerializer.INSTANCE;
        List<PartitionSplit> splits =
                List.of(PartitionSplit.unread(1), new PartitionSplit(4, 2, 30), PartitionSplit.unread(9));
        assertThat(s.deserialize(s.getVersion(), s.serialize(splits))).isEqualTo(splits);
        assertThat(s.deserialize(s.getVersion(), s.serialize(List.of()))).isEmpty();
        assertThat(s.serialize(List.of(PartitionSplit.unread(1))))
                .isEqualTo(new byte[] {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0});
    }

    @Test
    void unknownVersionsAndCorruptBytesAreRefused() {
        assertThatThrownBy(() -> PartitionSplitSerializer.INSTANCE.deserialize(3, new byte[12]))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("version 3")
                .hasMessageContaining("reads version 2");
        // Version 1's offsets count bytes of records in the first tuple format: not read as offsets now.
        assertThatThrownBy(() -> PartitionSplitSerializer.INSTANCE.deserialize(1, new byte[12]))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("offsets into records of an earlier format");
        assertThatThrownBy(() -> UnassignedSplitsSerializer.INSTANCE.deserialize(0, new byte[4]))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("version 0");
        assertThatThrownBy(() -> PartitionSplitSerializer.INSTANCE.deserialize(2, new byte[13]))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("1 bytes left over");
        assertThatThrownBy(
                        () -> UnassignedSplitsSerializer.INSTANCE.deserialize(2, new byte[] {0, 0, 0, 2, 0, 0, 0, 1}))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("2 splits in 8 bytes");
        assertThatThrownBy(() -> PartitionSplitSerializer.INSTANCE.deserialize(
                        2, new byte[] {0, 0, 0, 1, -1, -1, -1, -1, 0, 0, 0, 0}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("position -1");
    }
}
