package io.flinkivm.flink.source;

import java.io.IOException;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Version 2: partition, position and offset as three big-endian ints. The offset counts bytes of the
 * partition's records as {@code InputRecordSerializer} writes them, so the version follows that
 * format: version 1 had offsets into records in flink-ivm's first tuple format and is refused.
 */
final class PartitionSplitSerializer implements SimpleVersionedSerializer<PartitionSplit> {

    static final PartitionSplitSerializer INSTANCE = new PartitionSplitSerializer();
    static final int VERSION = 2;
    static final int BYTES = 3 * Integer.BYTES;

    private PartitionSplitSerializer() {}

    @Override
    public int getVersion() {
        return VERSION;
    }

    @Override
    public byte[] serialize(PartitionSplit split) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(BYTES);
        write(split, out);
        return out.getCopyOfBuffer();
    }

    @Override
    public PartitionSplit deserialize(int version, byte[] serialized) throws IOException {
        checkVersion("PartitionSplit", version);
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        PartitionSplit split = read(in);
        checkConsumed("PartitionSplit", in);
        return split;
    }

    static void write(PartitionSplit split, DataOutputView out) throws IOException {
        out.writeInt(split.partition());
        out.writeInt(split.position());
        out.writeInt(split.offset());
    }

    static PartitionSplit read(DataInputView in) throws IOException {
        return new PartitionSplit(in.readInt(), in.readInt(), in.readInt());
    }

    static void checkVersion(String what, int version) throws IOException {
        if (version != VERSION) {
            throw new IOException("Unknown " + what + " serializer version " + version + "; this build reads version "
                    + VERSION + " only"
                    + (version < VERSION
                            ? " (version " + version + " holds offsets into records of an earlier format: a savepoint"
                                    + " of an earlier flink-ivm restores only into the version that wrote it)."
                            : "."));
        }
    }

    static void checkConsumed(String what, DataInputDeserializer in) throws IOException {
        if (in.available() != 0) {
            throw new IOException("Corrupt " + what + " state: " + in.available() + " bytes left over.");
        }
    }
}
