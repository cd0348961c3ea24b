package io.flinkivm.flink.types;

import io.flinkivm.core.query.Tuple;
import java.io.IOException;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.base.TypeSerializerSingleton;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Serializer for a {@link TaggedTuple}: the tag as a var-int, then the tuple ({@link TupleSerializer});
 * its format version is the tuples'.
 * Keys of one tag share their first byte, so RocksDB stores each logical map contiguously.
 */
@Internal
public final class TaggedTupleSerializer extends TypeSerializerSingleton<TaggedTuple> {
    private static final long serialVersionUID = 1L;

    public static final TaggedTupleSerializer INSTANCE = new TaggedTupleSerializer();

    @Override
    public boolean isImmutableType() {
        return true;
    }

    @Override
    public TaggedTuple createInstance() {
        return new TaggedTuple(0, Tuple.EMPTY);
    }

    @Override
    public TaggedTuple copy(TaggedTuple from) {
        return from;
    }

    @Override
    public TaggedTuple copy(TaggedTuple from, TaggedTuple reuse) {
        return from;
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public void serialize(TaggedTuple record, DataOutputView target) throws IOException {
        VarInts.write(record.tag(), target);
        TupleSerializer.INSTANCE.serialize(record.tuple(), target);
    }

    @Override
    public TaggedTuple deserialize(DataInputView source) throws IOException {
        int tag = VarInts.read(source);
        return new TaggedTuple(tag, TupleSerializer.INSTANCE.deserialize(source));
    }

    @Override
    public TaggedTuple deserialize(TaggedTuple reuse, DataInputView source) throws IOException {
        return deserialize(source);
    }

    @Override
    public void copy(DataInputView source, DataOutputView target) throws IOException {
        VarInts.copy(source, target);
        TupleSerializer.INSTANCE.copy(source, target);
    }

    @Override
    public TypeSerializerSnapshot<TaggedTuple> snapshotConfiguration() {
        return new TaggedTupleSerializerSnapshot();
    }

    /** Snapshot of the {@link TaggedTupleSerializer}: its format version, which follows the tuples'. */
    public static final class TaggedTupleSerializerSnapshot extends FormatSnapshot<TaggedTuple> {
        public TaggedTupleSerializerSnapshot() {
            super("tagged tuple", TupleSerializer.FORMAT, TupleSerializer.TYPED_VALUES);
        }

        @Override
        protected TaggedTupleSerializer currentSerializer() {
            return INSTANCE;
        }
    }
}
