package io.flinkivm.flink.types;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeutils.CompositeTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;

/**
 * Snapshot of a serializer with nested serializers (the payload's) whose own byte format has a
 * version, the outer snapshot version: a snapshot of another version (an earlier flink-ivm) is
 * incompatible, so Flink refuses to restore its state, and restoring its serializer fails with the
 * reason instead of reading the earlier bytes as this format.
 *
 * @param <T> the serialized type
 * @param <S> the serializer
 */
@Internal
public abstract class FormatCompositeSnapshot<T, S extends TypeSerializer<T>>
        extends CompositeTypeSerializerSnapshot<T, S> {
    private int read = -1;

    /** For reading a snapshot. */
    protected FormatCompositeSnapshot() {}

    protected FormatCompositeSnapshot(S serializer) {
        super(serializer);
    }

    /** The format's name, for messages (e.g. "join record"). */
    protected abstract String what();

    /** The format version written now. */
    protected abstract int format();

    /** What the current format changed, for the message that refuses an earlier one; empty by default. */
    protected String change() {
        return "";
    }

    /** The serializer of the current format over {@code nested}. */
    protected abstract S create(TypeSerializer<?>[] nested);

    @Override
    protected final int getCurrentOuterSnapshotVersion() {
        return format();
    }

    @Override
    protected final void readOuterSnapshot(int readOuterSnapshotVersion, DataInputView in, ClassLoader classLoader) {
        read = readOuterSnapshotVersion;
    }

    private int readFormat() {
        return read < 0 ? format() : read;
    }

    @Override
    protected final OuterSchemaCompatibility resolveOuterSchemaCompatibility(TypeSerializerSnapshot<T> old) {
        return old.getClass() == getClass() && ((FormatCompositeSnapshot<?, ?>) old).readFormat() == format()
                ? OuterSchemaCompatibility.COMPATIBLE_AS_IS
                : OuterSchemaCompatibility.INCOMPATIBLE;
    }

    @Override
    protected final S createOuterSerializerWithNestedSerializers(TypeSerializer<?>[] nested) {
        if (readFormat() != format()) {
            throw new IllegalStateException(FormatSnapshot.unreadable(what(), readFormat(), format(), change()));
        }
        return create(nested);
    }
}
