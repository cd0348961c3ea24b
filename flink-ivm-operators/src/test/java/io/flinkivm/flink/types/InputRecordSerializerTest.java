package io.flinkivm.flink.types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.core.query.ChangeKind;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.CovarianceTriple;
import io.flinkivm.core.semiring.Polynomial;
import java.io.IOException;
import java.util.List;
import java.util.Objects;
import org.apache.flink.api.common.typeutils.base.DoubleSerializer;
import org.apache.flink.api.common.typeutils.base.LongSerializer;
import org.apache.flink.api.common.typeutils.base.array.LongPrimitiveArraySerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.testutils.DeeplyEqualsChecker;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class InputRecordSerializerTest {

    @SafeVarargs
    static <T> InputRecord<T>[] records(T... payloads) {
        Tuple[] tuples = Samples.tuples();
        @SuppressWarnings("unchecked")
        InputRecord<T>[] out = new InputRecord[payloads.length + 8];
        for (int i = 0; i < payloads.length; i++) {
            Tuple t = tuples[i % tuples.length];
            out[i] = i % 2 == 0
                    ? InputRecord.insert("R" + i, t, payloads[i], "line " + i)
                    : InputRecord.insert(i == 1 ? Samples.NON_ASCII : "S", t, payloads[i]);
        }
        out[payloads.length] = InputRecord.snapshotRequest();
        out[payloads.length + 1] = InputRecord.of(false, "R", null, null, "orders-0@42");
        out[payloads.length + 2] =
                InputRecord.insert(Samples.LONG_STRING, Tuple.EMPTY, payloads[0], Samples.LONG_STRING);
        out[payloads.length + 3] = InputRecord.delete("R", tuples[0], payloads[0]);
        List<InputRecord<T>> update = InputRecord.update("R", tuples[0], payloads[0], tuples[1], payloads[0]);
        out[payloads.length + 4] = update.get(0);
        out[payloads.length + 5] = update.get(1).with(ChangeKind.UPDATE_AFTER, payloads[0]);
        // Rows their table's filter dropped, for the key stages' marks: an insert, and an update's old row.
        out[payloads.length + 6] = InputRecord.dropped(ChangeKind.INSERT, "R", tuples[0], payloads[0], "row 3");
        out[payloads.length + 7] = InputRecord.dropped(ChangeKind.UPDATE_BEFORE, "R", tuples[1], payloads[0], null);
        return out;
    }

    @Nested
    class NaturalPayloads extends SerializerCase<InputRecord<Long>> {
        NaturalPayloads() {
            super(
                    new InputRecordSerializer<>(LongSerializer.INSTANCE),
                    InputRecord.class,
                    records(0L, 1L, -5L, Long.MAX_VALUE));
        }
    }

    @Nested
    class ProvenancePayloads extends SerializerCase<InputRecord<Polynomial>> {
        ProvenancePayloads() {
            super(
                    new InputRecordSerializer<>(PolynomialSerializer.INSTANCE),
                    InputRecord.class,
                    records(Samples.polynomials()));
        }
    }

    @Nested
    class CovariancePayloads extends SerializerCase<InputRecord<CovarianceTriple>> {
        CovariancePayloads() {
            super(
                    new InputRecordSerializer<>(new CovarianceTripleSerializer(2)),
                    InputRecord.class,
                    records(Samples.triples2()));
        }
    }

    /** A mutable payload type: copies must not share the array. */
    @Nested
    class MutablePayloads extends SerializerCase<InputRecord<long[]>> {
        MutablePayloads() {
            super(
                    new DeeplyEqualsChecker()
                            .withCustomCheck(
                                    (a, b) -> a instanceof InputRecord<?> && b instanceof InputRecord<?>,
                                    (a, b, checker) -> sameFields((InputRecord<?>) a, (InputRecord<?>) b, checker)),
                    new InputRecordSerializer<>(LongPrimitiveArraySerializer.INSTANCE),
                    InputRecord.class,
                    records(new long[0], new long[] {1, 2, 3}));
        }
    }

    /** InputRecord.equals compares payloads with equals, which for arrays is identity. */
    private static boolean sameFields(InputRecord<?> a, InputRecord<?> b, DeeplyEqualsChecker checker) {
        return a.isSnapshotRequest() == b.isSnapshotRequest()
                && Objects.equals(a.relation(), b.relation())
                && Objects.equals(a.tuple(), b.tuple())
                && Objects.equals(a.origin(), b.origin())
                && (a.payload() == null ? b.payload() == null : checker.deepEquals(a.payload(), b.payload()));
    }

    @Test
    void copyIsDeepForMutablePayloads() {
        InputRecordSerializer<long[]> s = new InputRecordSerializer<>(LongPrimitiveArraySerializer.INSTANCE);
        InputRecord<long[]> r = InputRecord.insert("R", Tuple.of(1L), new long[] {7});
        InputRecord<long[]> copy = s.copy(r);
        assertThat(s.isImmutableType()).isFalse();
        assertThat(copy.payload()).isNotSameAs(r.payload()).containsExactly(7);
        assertThat(copy.tuple()).isSameAs(r.tuple());

        InputRecordSerializer<Long> longs = new InputRecordSerializer<>(LongSerializer.INSTANCE);
        InputRecord<Long> l = InputRecord.insert("R", Tuple.of(1L), 3L);
        assertThat(longs.isImmutableType()).isTrue();
        assertThat(longs.copy(l)).isSameAs(l);
        assertThat(longs.duplicate()).isSameAs(longs);
    }

    @Test
    void snapshotNestsThePayloadSerializer() throws IOException {
        InputRecordSerializer<Long> longs = new InputRecordSerializer<>(LongSerializer.INSTANCE);
        SerializerSnapshots.assertRestoresAsIs(longs);
        SerializerSnapshots.assertRestoresAsIs(new InputRecordSerializer<>(new CovarianceTripleSerializer(3)));
        assertThat(SerializerSnapshots.compatibility(
                                new InputRecordSerializer<>(new CovarianceTripleSerializer(2)),
                                new InputRecordSerializer<>(new CovarianceTripleSerializer(3)))
                        .isIncompatible())
                .isTrue();
        assertThat(SerializerSnapshots.roundTrip(longs).restoreSerializer())
                .isNotEqualTo(new InputRecordSerializer<>(DoubleSerializer.INSTANCE));
    }

    @Test
    void unknownFlagsAreCorruptData() {
        InputRecordSerializer<Long> s = new InputRecordSerializer<>(LongSerializer.INSTANCE);
        assertThatThrownBy(() -> s.deserialize(new DataInputDeserializer(new byte[] {(byte) 0x80})))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("corrupt input record data: a dropped row without relation, tuple or payload"
                        + " (flags 0x80)");
    }
}
