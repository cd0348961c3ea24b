package io.flinkivm.flink.types;

import java.io.IOException;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.base.TypeSerializerSingleton;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Serializer for {@link IngestPosition}s. Format (version 1): subtask, parallelism and generation
 * (var-ints), then epoch, inEpoch, count, position and sinceSnapshot (var-longs).
 */
@Internal
public final class IngestPositionSerializer extends TypeSerializerSingleton<IngestPosition> {
    private static final long serialVersionUID = 1L;

    /** The only instance. */
    public static final IngestPositionSerializer INSTANCE = new IngestPositionSerializer();

    private static final IngestPosition EMPTY = new IngestPosition(0, 1, 0, 0, 0, 0, 0, 0);

    private IngestPositionSerializer() {}

    @Override
    public boolean isImmutableType() {
        return true;
    }

    @Override
    public IngestPosition createInstance() {
        return EMPTY;
    }

    @Override
    public IngestPosition copy(IngestPosition from) {
        return from;
    }

    @Override
    public IngestPosition copy(IngestPosition from, IngestPosition reuse) {
        return from;
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public void serialize(IngestPosition p, DataOutputView out) throws IOException {
        VarInts.write(p.subtask(), out);
        VarInts.write(p.parallelism(), out);
        VarInts.write(p.generation(), out);
        VarInts.writeLong(p.epoch(), out);
        VarInts.writeLong(p.inEpoch(), out);
        VarInts.writeLong(p.count(), out);
        VarInts.writeLong(p.position(), out);
        VarInts.writeLong(p.sinceSnapshot(), out);
    }

    @Override
    public IngestPosition deserialize(DataInputView in) throws IOException {
        return new IngestPosition(
                VarInts.read(in),
                VarInts.read(in),
                VarInts.read(in),
                VarInts.readLong(in),
                VarInts.readLong(in),
                VarInts.readLong(in),
                VarInts.readLong(in),
                VarInts.readLong(in));
    }

    @Override
    public IngestPosition deserialize(IngestPosition reuse, DataInputView in) throws IOException {
        return deserialize(in);
    }

    @Override
    public void copy(DataInputView source, DataOutputView target) throws IOException {
        serialize(deserialize(source), target);
    }

    @Override
    public TypeSerializerSnapshot<IngestPosition> snapshotConfiguration() {
        return new IngestPositionSerializerSnapshot();
    }

    /** Snapshot of the {@link IngestPositionSerializer}. */
    public static final class IngestPositionSerializerSnapshot extends SimpleTypeSerializerSnapshot<IngestPosition> {
        public IngestPositionSerializerSnapshot() {
            super(() -> INSTANCE);
        }
    }
}
