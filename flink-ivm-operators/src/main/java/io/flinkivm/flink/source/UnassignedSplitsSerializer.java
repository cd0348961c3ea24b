package io.flinkivm.flink.source;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/**
 * The enumerator's state, the splits not assigned yet. Version 1: their count, then each as
 * {@link PartitionSplitSerializer} writes it.
 */
final class UnassignedSplitsSerializer implements SimpleVersionedSerializer<List<PartitionSplit>> {

    static final UnassignedSplitsSerializer INSTANCE = new UnassignedSplitsSerializer();

    private UnassignedSplitsSerializer() {}

    @Override
    public int getVersion() {
        return PartitionSplitSerializer.VERSION;
    }

    @Override
    public byte[] serialize(List<PartitionSplit> splits) throws IOException {
        DataOutputSerializer out =
                new DataOutputSerializer(Integer.BYTES + splits.size() * PartitionSplitSerializer.BYTES);
        out.writeInt(splits.size());
        for (PartitionSplit split : splits) {
            PartitionSplitSerializer.write(split, out);
        }
        return out.getCopyOfBuffer();
    }

    @Override
    public List<PartitionSplit> deserialize(int version, byte[] serialized) throws IOException {
        PartitionSplitSerializer.checkVersion("PartitionedSource enumerator", version);
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        int n = in.readInt();
        if (n < 0 || n > in.available() / PartitionSplitSerializer.BYTES) {
            throw new IOException(
                    "Corrupt PartitionedSource enumerator state: " + n + " splits in " + serialized.length + " bytes.");
        }
        List<PartitionSplit> splits = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            splits.add(PartitionSplitSerializer.read(in));
        }
        PartitionSplitSerializer.checkConsumed("PartitionedSource enumerator", in);
        return splits;
    }
}
