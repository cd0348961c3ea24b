package io.flinkivm.flink.types;

import java.io.IOException;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSchemaCompatibility;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.base.TypeSerializerSingleton;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Serializer for {@link EpochEnd}s. Format (version 2): subtask and generation (var-ints), epoch and
 * inserts (var-longs), a flags byte (1: deterministic, 2: snapshot, 4: an event time follows), then the
 * event time (a long) if flag 4 is set. Version 1 had no event time and never set flag 4, so this
 * serializer reads both versions; an end of version 1 has {@link EpochEnd#NO_EVENT_TIME}.
 */
@Internal
public final class EpochEndSerializer extends TypeSerializerSingleton<EpochEnd> {
    private static final long serialVersionUID = 1L;

    /** The only instance. */
    public static final EpochEndSerializer INSTANCE = new EpochEndSerializer();

    /** The flag of an end with an event time (format version 2). */
    private static final int TIMED = 4;

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
        boolean timed = e.eventTime() != EpochEnd.NO_EVENT_TIME;
        out.writeByte((e.deterministic() ? 1 : 0) | (e.snapshot() ? 2 : 0) | (timed ? TIMED : 0));
        if (timed) {
            out.writeLong(e.eventTime());
        }
    }

    @Override
    public EpochEnd deserialize(DataInputView in) throws IOException {
        int subtask = VarInts.read(in);
        int generation = VarInts.read(in);
        long epoch = VarInts.readLong(in);
        long inserts = VarInts.readLong(in);
        int flags = in.readUnsignedByte();
        if ((flags & ~(3 | TIMED)) != 0) {
            throw new IOException("corrupt epoch end: unknown flags 0x" + Integer.toHexString(flags));
        }
        long eventTime = (flags & TIMED) != 0 ? in.readLong() : EpochEnd.NO_EVENT_TIME;
        return new EpochEnd(subtask, generation, epoch, inserts, (flags & 1) != 0, (flags & 2) != 0, eventTime);
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

    /**
     * Snapshot of the {@link EpochEndSerializer}: its version is the format's plus {@value #FIRST_VERSION}
     * - 1. Version {@value #FIRST_VERSION} (format 1, written by Flink's {@link SimpleTypeSerializerSnapshot}
     * before format 2) and version {@value #CURRENT_VERSION} (format 2) both restore as they are: the
     * serializer reads either format.
     */
    public static final class EpochEndSerializerSnapshot implements TypeSerializerSnapshot<EpochEnd> {
        /** The snapshot version of format 1 (Flink's {@link SimpleTypeSerializerSnapshot} wrote 3). */
        static final int FIRST_VERSION = 3;

        /** The snapshot version of format 2. */
        static final int CURRENT_VERSION = 4;

        private int version = CURRENT_VERSION;

        public EpochEndSerializerSnapshot() {}

        /** The format of the epoch ends this snapshot was written with (1 or 2). */
        int format() {
            return version - FIRST_VERSION + 1;
        }

        @Override
        public int getCurrentVersion() {
            return CURRENT_VERSION;
        }

        @Override
        public void writeSnapshot(DataOutputView out) {}

        @Override
        public void readSnapshot(int readVersion, DataInputView in, ClassLoader classLoader) throws IOException {
            if (readVersion < FIRST_VERSION || readVersion > CURRENT_VERSION) {
                throw new IOException("epoch ends of snapshot version " + readVersion
                        + " are not known to this version of flink-ivm (it reads versions " + FIRST_VERSION
                        + " to " + CURRENT_VERSION + ")");
            }
            version = readVersion;
        }

        @Override
        public TypeSerializer<EpochEnd> restoreSerializer() {
            return INSTANCE;
        }

        @Override
        public TypeSerializerSchemaCompatibility<EpochEnd> resolveSchemaCompatibility(
                TypeSerializerSnapshot<EpochEnd> oldSnapshot) {
            return oldSnapshot instanceof EpochEndSerializerSnapshot
                    ? TypeSerializerSchemaCompatibility.compatibleAsIs()
                    : TypeSerializerSchemaCompatibility.incompatible();
        }
    }
}
