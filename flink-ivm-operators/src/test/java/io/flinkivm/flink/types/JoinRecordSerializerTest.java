package io.flinkivm.flink.types;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.engine.join.JoinRecord;
import io.flinkivm.core.query.Tuple;
import org.apache.flink.api.common.typeutils.base.LongSerializer;
import org.junit.jupiter.api.Test;

class JoinRecordSerializerTest {

    /** A record whose payload is kept unboxed writes the same bytes as one whose payload is boxed. */
    @Test
    void anUnboxedPayloadIsWrittenAsItsBoxedValue() throws Exception {
        JoinRecordSerializer<Long> serializer = new JoinRecordSerializer<>(LongSerializer.INSTANCE);
        JoinRecord<Long> unboxed = new JoinRecord<>();
        unboxed.setUnboxedPayload(42L);
        unboxed.liveNext = Tuple.of(3L);
        JoinRecord<Long> boxed = new JoinRecord<>(42L);
        boxed.liveNext = Tuple.of(3L);
        JoinRecord<Long> read = RoundTrip.of(serializer, unboxed);
        assertThat(read.payload()).isEqualTo(42L);
        assertThat(read.liveNext).isEqualTo(Tuple.of(3L));
        assertThat(bytes(serializer, unboxed)).isEqualTo(bytes(serializer, boxed));
        assertThat(serializer.copy(unboxed).payload()).isEqualTo(42L);
    }

    private static byte[] bytes(JoinRecordSerializer<Long> serializer, JoinRecord<Long> r) throws Exception {
        org.apache.flink.core.memory.DataOutputSerializer out =
                new org.apache.flink.core.memory.DataOutputSerializer(32);
        serializer.serialize(r, out);
        return out.getCopyOfBuffer();
    }
}
