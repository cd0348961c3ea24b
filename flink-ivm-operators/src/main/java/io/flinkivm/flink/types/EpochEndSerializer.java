package io.flinkivm.flink.types;

import java.io.IOException;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.base.TypeSerializerSingleton;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Serializer for {@link EpochEnd}s. Format (version 1): subtask and generation (var-ints), epoch and
 * inserts (var-longs), a flags byte (deterministic, snapshot).
 */
@Internal
public final class EpochEndSerializer extends TypeSerializerSingleton<EpochEnd> {
    private static final long serialVersionUID = 1L;

    /** The only instance. */
    public static final EpochEndSerializer INSTANCE = new EpochEndSerializer();

    private static final EpochEnd EMPTY = new EpochEnd(0, 0, 0, 0, true, true);

    private EpochEndSerializer() {}

    @Override
    public boolean isImmutableType() {
        return true;
    }

    @Override
    public EpochEnd createInstance() {
        return EMPTY;
    }

    @Override
    public EpochEnd copy(EpochEnd from) {
        return from;
    }

    @Override
    public EpochEnd copy(EpochEnd from, EpochEnd reuse) {
        return from;
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public void serialize(EpochEnd e, DataOutputView out) throws IOException {
        VarInts.write(e.subtask(), out);
        VarInts.write(e.generation(), out);
        VarInts.writeLong(e.epoch(), out);
        VarInts.writeLong(e.inserts(), out);
        out.writeByte((e.deterministic() ? 1 : 0) | (e.snapshot() ? 2 : 0));
    }

    @Override
    public EpochEnd deserialize(DataInputView in) throws IOException {
        int subtask = VarInts.read(in);
        int generation = VarInts.read(in);
        long epoch = VarInts.readLong(in);
        long inserts = VarInts.readLong(in);
        int flags = in.readUnsignedByte();
        if ((flags & ~3) != 0) {
            throw new IOException("corrupt epoch end: unknown flags 0x" + Integer.toHexString(flags));
        }
        return new EpochEnd(subtask, generation, epoch, inserts, (flags & 1) != 0, (flags & 2) != 0);
    }

    @Override
    public EpochEnd deserialize(EpochEnd reuse, DataInputView in) throws IOException {
        return deserialize(in);
    }

    @Override
    public void copy(DataInputView source, DataOutputView target) throws IOException {
        serialize(deserialize(source), target);
    }

    @Override
    public TypeSerializerSnapshot<EpochEnd> snapshotConfiguration() {
        return new EpochEndSerializerSnapshot();
    }

    /** Snapshot of the {@link EpochEndSerializer}. */
    public static final class EpochEndSerializerSnapshot extends SimpleTypeSerializerSnapshot<EpochEnd> {
        public EpochEndSerializerSnapshot() {
            super(() -> INSTANCE);
        }
    }
}
