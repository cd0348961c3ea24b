package io.flinkivm.flink.types;

import java.io.IOException;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.base.TypeSerializerSingleton;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Serializer for {@code Long} payloads in state: zig-zag encoded var-longs (format version 1), one
 * byte for -64..63 and two up to ±8191, where Flink's {@code LongSerializer} always takes eight. Counts
 * and sums of a few factors, the usual natural-number payloads, are small. ({@link PayloadTypes#inState}
 * puts it in place of {@code LongSerializer} for state; records between operators keep Flink's.)
 */
@Internal
public final class VarLongSerializer extends TypeSerializerSingleton<Long> {
    private static final long serialVersionUID = 1L;

    /** The only instance. */
    public static final VarLongSerializer INSTANCE = new VarLongSerializer();

    static final int FORMAT = 1;

    private VarLongSerializer() {}

    @Override
    public boolean isImmutableType() {
        return true;
    }

    @Override
    public Long createInstance() {
        return 0L;
    }

    @Override
    public Long copy(Long from) {
        return from;
    }

    @Override
    public Long copy(Long from, Long reuse) {
        return from;
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public void serialize(Long value, DataOutputView out) throws IOException {
        VarInts.writeSignedLong(value, out);
    }

    @Override
    public Long deserialize(DataInputView in) throws IOException {
        return VarInts.readSignedLong(in);
    }

    @Override
    public Long deserialize(Long reuse, DataInputView in) throws IOException {
        return deserialize(in);
    }

    @Override
    public void copy(DataInputView source, DataOutputView target) throws IOException {
        int b;
        do {
            b = source.readUnsignedByte();
            target.writeByte(b);
        } while ((b & 0x80) != 0);
    }

    @Override
    public TypeSerializerSnapshot<Long> snapshotConfiguration() {
        return new VarLongSerializerSnapshot();
    }

    /** Snapshot of the {@link VarLongSerializer}: its format version. */
    public static final class VarLongSerializerSnapshot extends FormatSnapshot<Long> {
        public VarLongSerializerSnapshot() {
            super("var-long", FORMAT);
        }

        @Override
        protected VarLongSerializer currentSerializer() {
            return INSTANCE;
        }
    }
}
