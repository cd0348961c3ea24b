package io.flinkivm.flink.types;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.engine.join.JoinRecord;
import io.flinkivm.core.query.Tuple;
import java.io.IOException;
import java.util.Arrays;
import java.util.Objects;
import org.apache.flink.api.common.typeutils.base.BooleanSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.testutils.DeeplyEqualsChecker;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class JoinRecordSerializerTest {

    /** JoinRecord has no equals: compare its fields. */
    static final DeeplyEqualsChecker RECORDS = new DeeplyEqualsChecker()
            .withCustomCheck(
                    (a, b) -> a instanceof JoinRecord<?> && b instanceof JoinRecord<?>,
                    (a, b, checker) -> same((JoinRecord<?>) a, (JoinRecord<?>) b));

    static boolean same(JoinRecord<?> a, JoinRecord<?> b) {
        return Objects.equals(a.payload(), b.payload())
                && a.missing == b.missing
                && Objects.equals(a.liveNext, b.liveNext)
                && Arrays.equals(a.waitNext, b.waitNext)
                && a.inJoin == b.inJoin
                && Arrays.equals(a.upNext, b.upNext)
                && a.dirty == b.dirty
                && Objects.equals(a.oldPayload, b.oldPayload);
    }

    @SuppressWarnings("unchecked")
    static JoinRecord<Long>[] records() {
        JoinRecord<Long> leaf = new JoinRecord<>(1L);
        JoinRecord<Long> listed = new JoinRecord<>(5_000L);
        listed.liveNext = Tuple.of(3L, "c");
        JoinRecord<Long> waiting = new JoinRecord<>(2L);
        waiting.shape(3, false);
        waiting.missing = 2;
        waiting.waitNext[0] = Tuple.of(9L);
        waiting.waitNext[2] = Tuple.of(-4L, 7);
        JoinRecord<Long> inJoin = new JoinRecord<>(Long.MAX_VALUE);
        inJoin.shape(2, true);
        inJoin.clearWaiting();
        inJoin.inJoin = true;
        inJoin.upNext[1] = Tuple.of(1L, 2L);
        inJoin.dirty = JoinRecord.CHANGED;
        inJoin.oldPayload = Long.MIN_VALUE;
        JoinRecord<Long> fresh = new JoinRecord<>(3L);
        fresh.dirty = JoinRecord.NEW;
        JoinRecord<Long> bag = new JoinRecord<>();
        bag.shape(9, true);
        bag.missing = 9;
        for (int i = 0; i < 9; i += 2) {
            bag.waitNext[i] = Tuple.of((long) i);
        }
        return new JoinRecord[] {leaf, listed, waiting, inJoin, fresh, bag};
    }

    @Nested
    class NaturalPayloads extends SerializerCase<JoinRecord<Long>> {
        NaturalPayloads() {
            super(RECORDS, new JoinRecordSerializer<>(VarLongSerializer.INSTANCE), JoinRecord.class, records());
        }
    }

    @Nested
    class BooleanPayloads extends SerializerCase<JoinRecord<Boolean>> {
        @SuppressWarnings("unchecked")
        BooleanPayloads() {
            super(RECORDS, new JoinRecordSerializer<>(BooleanSerializer.INSTANCE), JoinRecord.class, new JoinRecord[] {
                new JoinRecord<>(true), new JoinRecord<Boolean>()
            });
        }
    }

    @Test
    void aLiveCleanRecordIsItsPayloadAndOneByte() throws IOException {
        assertThat(bytes(new JoinRecord<>(1L))).hasSize(1 + 1);
        JoinRecord<Long> listed = new JoinRecord<>(1L);
        listed.liveNext = Tuple.of(5L);
        assertThat(bytes(listed)).hasSize(1 + 1 + 2);
    }

    @Test
    void theFlagsTellWhatFollows() throws IOException {
        for (JoinRecord<Long> r : records()) {
            byte[] b = bytes(r);
            JoinRecord<Long> back =
                    new JoinRecordSerializer<>(VarLongSerializer.INSTANCE).deserialize(new DataInputDeserializer(b));
            assertThat(same(r, back)).as(r.toString()).isTrue();
        }
    }

    @Test
    void anEarlierSnapshotVersionIsIncompatible() throws IOException {
        JoinRecordSerializer<Long> s = new JoinRecordSerializer<>(VarLongSerializer.INSTANCE);
        SerializerSnapshots.assertRestoresAsIs(s);
        // The payload serializer of the first layout (Flink's 8-byte longs) is refused through the nested snapshot.
        assertThat(SerializerSnapshots.compatibility(
                                new JoinRecordSerializer<>(
                                        org.apache.flink.api.common.typeutils.base.LongSerializer.INSTANCE),
                                s)
                        .isIncompatible())
                .isTrue();
    }

    /** A record whose payload is kept unboxed writes the same bytes as one whose payload is boxed. */
    @Test
    void anUnboxedPayloadIsWrittenAsItsBoxedValue() throws Exception {
        JoinRecordSerializer<Long> serializer = new JoinRecordSerializer<>(VarLongSerializer.INSTANCE);
        JoinRecord<Long> unboxed = new JoinRecord<>();
        unboxed.setUnboxedPayload(42L);
        unboxed.liveNext = Tuple.of(3L);
        JoinRecord<Long> boxed = new JoinRecord<>(42L);
        boxed.liveNext = Tuple.of(3L);
        JoinRecord<Long> read = RoundTrip.of(serializer, unboxed);
        assertThat(read.payload()).isEqualTo(42L);
        assertThat(read.liveNext).isEqualTo(Tuple.of(3L));
        assertThat(bytes(unboxed)).isEqualTo(bytes(boxed));
        assertThat(serializer.copy(unboxed).payload()).isEqualTo(42L);
    }

    private static byte[] bytes(JoinRecord<Long> r) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(64);
        new JoinRecordSerializer<>(VarLongSerializer.INSTANCE).serialize(r, out);
        return out.getCopyOfBuffer();
    }
}
