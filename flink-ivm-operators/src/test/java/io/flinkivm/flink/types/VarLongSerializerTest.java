package io.flinkivm.flink.types;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.apache.flink.api.common.typeutils.SerializerTestBase;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.base.LongSerializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

class VarLongSerializerTest extends SerializerTestBase<Long> {

    @Override
    protected TypeSerializer<Long> createSerializer() {
        return VarLongSerializer.INSTANCE;
    }

    @Override
    protected int getLength() {
        return -1;
    }

    @Override
    protected Class<Long> getTypeClass() {
        return Long.class;
    }

    @Override
    protected Long[] getTestData() {
        return new Long[] {0L, 1L, -1L, 63L, 64L, 1_000_000_007L, Long.MIN_VALUE, Long.MAX_VALUE};
    }

    @Test
    void smallPayloadsTakeOneByte() throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(16);
        VarLongSerializer.INSTANCE.serialize(3L, out);
        assertThat(out.length()).isEqualTo(1);
    }

    @Test
    void stateReplacesFlinksLongSerializerOnly() throws IOException {
        assertThat(PayloadTypes.inState(LongSerializer.INSTANCE)).isSameAs(VarLongSerializer.INSTANCE);
        assertThat(PayloadTypes.inState(PolynomialSerializer.INSTANCE)).isSameAs(PolynomialSerializer.INSTANCE);
        // State written with Flink's 8-byte longs is not read as var-longs.
        assertThat(SerializerSnapshots.compatibility(LongSerializer.INSTANCE, VarLongSerializer.INSTANCE)
                        .isIncompatible())
                .isTrue();
        SerializerSnapshots.assertRestoresAsIs(VarLongSerializer.INSTANCE);
    }
}
