package io.flinkivm.flink.types;

import io.flinkivm.core.engine.qtree.QTreeEntry;
import io.flinkivm.core.engine.qtree.QTreeEntryFormat;
import io.flinkivm.core.query.Tuple;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Serializer of the q-tree sink's entries ({@link QTreeEntry}) in core's format
 * ({@link QTreeEntryFormat}, version 1), payloads by the nested serializer. Entries are mutable: a copy
 * goes through the bytes.
 */
@Internal
public final class QTreeEntrySerializer<T> extends TypeSerializer<QTreeEntry<T>> {
    private static final long serialVersionUID = 1L;

    private final TypeSerializer<T> payloadSerializer;
    private transient QTreeEntryFormat.Io<T> payloads;
    private transient QTreeEntryFormat.Io<Tuple> tuples;
    private transient DataOutputSerializer buffer;

    public QTreeEntrySerializer(TypeSerializer<T> payloadSerializer) {
        this.payloadSerializer = Objects.requireNonNull(payloadSerializer, "payloadSerializer");
    }

    private QTreeEntryFormat.Io<T> payloads() {
        if (payloads == null) {
            payloads = new QTreeEntryFormat.Io<>() {
                @Override
                public void write(T value, DataOutput out) throws IOException {
                    payloadSerializer.serialize(value, view(out));
                }

                @Override
                public T read(DataInput in) throws IOException {
                    return payloadSerializer.deserialize(view(in));
                }
            };
            tuples = new QTreeEntryFormat.Io<>() {
                @Override
                public void write(Tuple value, DataOutput out) throws IOException {
                    TupleSerializer.INSTANCE.serialize(value, view(out));
                }

                @Override
                public Tuple read(DataInput in) throws IOException {
                    return TupleSerializer.INSTANCE.deserialize(view(in));
                }
            };
        }
        return payloads;
    }

    /** Core's format hands back the view it was given. */
    private static DataOutputView view(DataOutput out) {
        return (DataOutputView) out;
    }

    private static DataInputView view(DataInput in) {
        return (DataInputView) in;
    }

    @Override
    public boolean isImmutableType() {
        return false;
    }

    @Override
    public TypeSerializer<QTreeEntry<T>> duplicate() {
        return new QTreeEntrySerializer<>(payloadSerializer.duplicate());
    }

    @Override
    public QTreeEntry<T> createInstance() {
        return new QTreeEntry<>(0, 0, false);
    }

    @Override
    public QTreeEntry<T> copy(QTreeEntry<T> from) {
        try {
            if (buffer == null) {
                buffer = new DataOutputSerializer(64);
            }
            buffer.clear();
            serialize(from, buffer);
            return deserialize(new DataInputDeserializer(buffer.getSharedBuffer(), 0, buffer.length()));
        } catch (IOException e) {
            throw new IllegalStateException("cannot copy " + from, e);
        }
    }

    @Override
    public QTreeEntry<T> copy(QTreeEntry<T> from, QTreeEntry<T> reuse) {
        return copy(from);
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public void serialize(QTreeEntry<T> entry, DataOutputView out) throws IOException {
        QTreeEntryFormat.write(entry, payloads(), tuples, out);
    }

    @Override
    public QTreeEntry<T> deserialize(DataInputView in) throws IOException {
        return QTreeEntryFormat.read(payloads(), tuples, in);
    }

    @Override
    public QTreeEntry<T> deserialize(QTreeEntry<T> reuse, DataInputView in) throws IOException {
        return deserialize(in);
    }

    @Override
    public void copy(DataInputView source, DataOutputView target) throws IOException {
        serialize(deserialize(source), target);
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof QTreeEntrySerializer<?> s && s.payloadSerializer.equals(payloadSerializer);
    }

    @Override
    public int hashCode() {
        return 31 * QTreeEntrySerializer.class.hashCode() + payloadSerializer.hashCode();
    }

    @Override
    public TypeSerializerSnapshot<QTreeEntry<T>> snapshotConfiguration() {
        return new QTreeEntrySerializerSnapshot<>(this);
    }

    /** Snapshot of a {@link QTreeEntrySerializer}: the nested payload serializer's snapshot. */
    public static final class QTreeEntrySerializerSnapshot<T>
            extends FormatCompositeSnapshot<QTreeEntry<T>, QTreeEntrySerializer<T>> {
        private static final int VERSION = 1;

        /** For reading a snapshot. */
        public QTreeEntrySerializerSnapshot() {}

        QTreeEntrySerializerSnapshot(QTreeEntrySerializer<T> serializer) {
            super(serializer);
        }

        @Override
        protected String what() {
            return "q-tree entry";
        }

        @Override
        protected int format() {
            return VERSION;
        }

        @Override
        protected TypeSerializer<?>[] getNestedSerializers(QTreeEntrySerializer<T> outer) {
            return new TypeSerializer<?>[] {outer.payloadSerializer};
        }

        @Override
        @SuppressWarnings("unchecked") // the nested serializers are the ones getNestedSerializers returned
        protected QTreeEntrySerializer<T> create(TypeSerializer<?>[] nested) {
            return new QTreeEntrySerializer<>((TypeSerializer<T>) nested[0]);
        }
    }
}
