package io.flinkivm.flink.source;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.SourceSplit;

/**
 * A partition of a {@link PartitionedSource} and how far it has been read: the first
 * {@code position} records, which end at byte {@code offset} of the partition's serialized records.
 * A reader's checkpointed state is a list of these; a fresh split starts at position 0.
 *
 * @param partition index of the partition in the source
 * @param position number of records of the partition already emitted
 * @param offset byte offset of the next record in the partition's serialized records
 */
@Internal
public record PartitionSplit(int partition, int position, int offset) implements SourceSplit {

    public PartitionSplit {
        if (partition < 0 || position < 0 || offset < 0) {
            throw new IllegalArgumentException("partition, position and offset must be >= 0, got partition " + partition
                    + ", position " + position + ", offset " + offset);
        }
    }

    /** The whole partition, not read yet. */
    static PartitionSplit unread(int partition) {
        return new PartitionSplit(partition, 0, 0);
    }

    @Override
    public String splitId() {
        return Integer.toString(partition);
    }
}
