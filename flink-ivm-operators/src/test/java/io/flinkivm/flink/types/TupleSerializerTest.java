package io.flinkivm.flink.types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.core.query.Tuple;
import java.io.IOException;
import org.apache.flink.api.common.typeutils.SerializerTestBase;
import org.apache.flink.api.common.typeutils.TypeSerializer;
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
        assertThat(bytes(Tuple.of(1L))).hasSize(1 + 1 + 8);
    }

    @Test
    void emptyTupleDeserializesToTheSharedInstance() throws IOException {
        assertThat(TupleSerializer.INSTANCE.deserialize(new DataInputDeserializer(bytes(Tuple.EMPTY))))
                .isSameAs(Tuple.EMPTY);
    }

    @Test
    void unknownTagIsCorruptData() {
        byte[] corrupt = {1, 42};
        assertThatThrownBy(() -> TupleSerializer.INSTANCE.deserialize(new DataInputDeserializer(corrupt)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("unknown value tag 42 at position 0");
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
