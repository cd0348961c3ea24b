package io.flinkivm.flink.types;

import java.io.IOException;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSchemaCompatibility;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Snapshot of a serializer without configuration whose byte format has a version, the snapshot's
 * version: a snapshot of another version (an earlier flink-ivm) is incompatible, so Flink refuses to
 * restore its state, and the serializer it restores fails on the first read with the reason instead of
 * reading the earlier bytes as this format.
 *
 * @param <T> the serialized type
 */
@Internal
public abstract class FormatSnapshot<T> implements TypeSerializerSnapshot<T> {
    private final String what;
    private final int format;
    private final String change;
    private int read;

    /**
     * @param what the format's name, for messages (e.g. "tuple")
     * @param format the format version written now; above 3, the version of Flink's
     *     {@code SimpleTypeSerializerSnapshot} that flink-ivm's first formats used
     */
    protected FormatSnapshot(String what, int format) {
        this(what, format, "");
    }

    /**
     * @param change what the current format changed, for the message that refuses an earlier one (empty
     *     for none)
     */
    protected FormatSnapshot(String what, int format, String change) {
        this.what = what;
        this.format = format;
        this.change = change;
        this.read = format;
    }

    /** The serializer of the current format. */
    protected abstract TypeSerializer<T> currentSerializer();

    @Override
    public int getCurrentVersion() {
        return format;
    }

    @Override
    public void writeSnapshot(DataOutputView out) {}

    @Override
    public void readSnapshot(int readVersion, DataInputView in, ClassLoader classLoader) {
        this.read = readVersion;
    }

    /** The format version of the state this snapshot describes. */
    int readFormat() {
        return read;
    }

    @Override
    public TypeSerializer<T> restoreSerializer() {
        return read == format
                ? currentSerializer()
                : new UnreadableSerializer<>(unreadable(what, read, format, change));
    }

    @Override
    public TypeSerializerSchemaCompatibility<T> resolveSchemaCompatibility(TypeSerializerSnapshot<T> old) {
        return old.getClass() == getClass() && ((FormatSnapshot<T>) old).read == format
                ? TypeSerializerSchemaCompatibility.compatibleAsIs()
                : TypeSerializerSchemaCompatibility.incompatible();
    }

    /**
     * Why state of format {@code found} is not read by this flink-ivm, which writes {@code current}
     * ({@code change}: what that format changed, or empty).
     */
    static String unreadable(String what, int found, int current, String change) {
        return "flink-ivm state in " + what + " format " + found + " cannot be read: this flink-ivm reads and writes"
                + " format " + current + (change.isEmpty() ? "" : " (" + change + ")")
                + ". Before 1.0 state is not migrated: a savepoint of an earlier flink-ivm restores only into the"
                + " version that wrote it; start this job without it";
    }

    /** The serializer restored for state of an earlier format: any use fails with the reason. */
    static final class UnreadableSerializer<T> extends TypeSerializer<T> {
        private static final long serialVersionUID = 1L;
        private final String reason;

        UnreadableSerializer(String reason) {
            this.reason = reason;
        }

        private IOException refuse() {
            return new IOException(reason);
        }

        @Override
        public boolean isImmutableType() {
            return true;
        }

        @Override
        public TypeSerializer<T> duplicate() {
            return this;
        }

        @Override
        public T createInstance() {
            throw new IllegalStateException(reason);
        }

        @Override
        public T copy(T from) {
            throw new IllegalStateException(reason);
        }

        @Override
        public T copy(T from, T reuse) {
            throw new IllegalStateException(reason);
        }

        @Override
        public int getLength() {
            return -1;
        }

        @Override
        public void serialize(T record, DataOutputView target) throws IOException {
            throw refuse();
        }

        @Override
        public T deserialize(DataInputView source) throws IOException {
            throw refuse();
        }

        @Override
        public T deserialize(T reuse, DataInputView source) throws IOException {
            throw refuse();
        }

        @Override
        public void copy(DataInputView source, DataOutputView target) throws IOException {
            throw refuse();
        }

        @Override
        public boolean equals(Object obj) {
            return obj instanceof UnreadableSerializer<?> other && reason.equals(other.reason);
        }

        @Override
        public int hashCode() {
            return reason.hashCode();
        }

        @Override
        public TypeSerializerSnapshot<T> snapshotConfiguration() {
            throw new IllegalStateException(reason);
        }

        @Override
        public String toString() {
            return reason;
        }
    }
}
