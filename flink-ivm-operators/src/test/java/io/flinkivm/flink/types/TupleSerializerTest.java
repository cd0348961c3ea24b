package io.flinkivm.flink.types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.core.query.Tuple;
import java.io.IOException;
import org.apache.flink.api.common.typeutils.SerializerTestBase;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

class TupleSerializerTest extends SerializerTestBase<Tuple> {

    @Override
    protected TypeSerializer<Tuple> createSerializer() {
        return TupleSerializer.INSTANCE;
    }

    @Override
    protected int getLength() {
        return -1;
    }

    @Override
    protected Class<Tuple> getTypeClass() {
        return Tuple.class;
    }

    @Override
    protected Tuple[] getTestData() {
        return Samples.tuples();
    }

    @Test
    void equalTuplesHaveEqualBytes() throws IOException {
        // Keys in RocksDB are compared as bytes: equal tuples must serialize alike, NaN included.
        Tuple a = Tuple.of("k", 1L, Double.NaN, 7);
        Tuple b = Tuple.of("k", 1L, Double.longBitsToDouble(0x7ff8000000000123L), 7);
        assertThat(a).isEqualTo(b);
        assertThat(bytes(a)).isEqualTo(bytes(b));
        assertThat(bytes(Tuple.of(1L))).isNotEqualTo(bytes(Tuple.of(1)));
    }

    @Test
    void encodingIsCompact() throws IOException {
        assertThat(bytes(Tuple.EMPTY)).containsExactly(0);
        assertThat(bytes(Tuple.of(true, false))).containsExactly(2, TupleSerializer.TRUE, TupleSerializer.FALSE);
        // A header byte holds the type and a zig-zag encoded value of -8..7; the rest follows as a var-long.
        assertThat(bytes(Tuple.of(1L))).hasSize(1 + 1);
        assertThat(bytes(Tuple.of(-8L))).hasSize(1 + 1);
        assertThat(bytes(Tuple.of(8L))).hasSize(1 + 2);
        assertThat(bytes(Tuple.of(1000L, -1000))).hasSize(1 + 2 + 2);
        assertThat(bytes(Tuple.of(6_000_000L))).hasSize(1 + 4);
        assertThat(bytes(Tuple.of(Long.MIN_VALUE))).hasSize(1 + 1 + 9);
        assertThat(bytes(Tuple.of(Integer.MAX_VALUE))).hasSize(1 + 1 + 4);
    }

    @Test
    void aSnapshotOfTheFirstFormatIsIncompatibleAndItsSerializerRefusesToRead() throws IOException {
        // What flink-ivm's first layout wrote: the snapshot class (a SimpleTypeSerializerSnapshot), version 3.
        DataOutputSerializer out = new DataOutputSerializer(128);
        out.writeUTF(TupleSerializer.TupleSerializerSnapshot.class.getName());
        out.writeInt(3);
        TypeSerializerSnapshot<Tuple> first = TypeSerializerSnapshot.readVersionedSnapshot(
                new DataInputDeserializer(out.getCopyOfBuffer()), getClass().getClassLoader());

        assertThat(TupleSerializer.INSTANCE
                        .snapshotConfiguration()
                        .resolveSchemaCompatibility(first)
                        .isIncompatible())
                .isTrue();
        TypeSerializer<Tuple> restored = first.restoreSerializer();
        // The first format's Tuple.of(1L): arity 1, tag 2 (long), 8 bytes.
        byte[] old = {1, 2, 0, 0, 0, 0, 0, 0, 0, 1};
        assertThatThrownBy(() -> restored.deserialize(new DataInputDeserializer(old)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("flink-ivm state in tuple format 3 cannot be read")
                .hasMessageContaining("format 4");
        SerializerSnapshots.assertRestoresAsIs(TupleSerializer.INSTANCE);
    }

    @Test
    void emptyTupleDeserializesToTheSharedInstance() throws IOException {
        assertThat(TupleSerializer.INSTANCE.deserialize(new DataInputDeserializer(bytes(Tuple.EMPTY))))
                .isSameAs(Tuple.EMPTY);
    }

    @Test
    void unknownTagIsCorruptData() {
        byte[] corrupt = {1, 7};
        assertThatThrownBy(() -> TupleSerializer.INSTANCE.deserialize(new DataInputDeserializer(corrupt)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("unknown value type 7 at position 0");
    }

    @Test
    void unsupportedValueIsRejected() {
        Tuple bad = Tuple.wrap(new Object[] {1L, new StringBuilder("x")});
        assertThatThrownBy(() -> bytes(bad))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("position 1")
                .hasMessageContaining("java.lang.StringBuilder");
    }

    @Test
    void copyReturnsTheImmutableTuple() {
        Tuple t = Tuple.of("a", 1L);
        assertThat(TupleSerializer.INSTANCE.copy(t)).isSameAs(t);
        assertThat(TupleSerializer.INSTANCE.isImmutableType()).isTrue();
    }

    static byte[] bytes(Tuple t) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(16);
        TupleSerializer.INSTANCE.serialize(t, out);
        return out.getCopyOfBuffer();
    }
}
