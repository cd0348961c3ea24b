package io.flinkivm.flink.types;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.CovarianceTriple;
import io.flinkivm.core.semiring.Polynomial;
import java.io.IOException;
import org.apache.flink.api.common.typeutils.base.BooleanSerializer;
import org.apache.flink.api.common.typeutils.base.DoubleSerializer;
import org.apache.flink.api.common.typeutils.base.LongSerializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class DeltaSerializerTest {

    @SafeVarargs
    static <T> Delta<T>[] deltas(T... payloads) {
        Tuple[] tuples = Samples.tuples();
        @SuppressWarnings("unchecked")
        Delta<T>[] out = new Delta[payloads.length + 1];
        for (int i = 0; i < payloads.length; i++) {
            out[i] = new Delta<>(
                    1 + i,
                    i % 3,
                    tuples[i % tuples.length],
                    payloads[i],
                    (long) i << 16 | i,
                    i % 2 == 0 ? null : Tuple.of(i));
        }
        out[payloads.length] =
                new Delta<>(Long.MAX_VALUE, Integer.MAX_VALUE, Tuple.EMPTY, payloads[0], Long.MAX_VALUE, Tuple.EMPTY);
        return out;
    }

    @Nested
    class NaturalPayloads extends SerializerCase<Delta<Long>> {
        NaturalPayloads() {
            super(new DeltaSerializer<>(LongSerializer.INSTANCE), Delta.class, deltas(1L, 2L, 3L));
        }
    }

    @Nested
    class BooleanPayloads extends SerializerCase<Delta<Boolean>> {
        BooleanPayloads() {
            super(new DeltaSerializer<>(BooleanSerializer.INSTANCE), Delta.class, deltas(true, false));
        }
    }

    @Nested
    class TropicalPayloads extends SerializerCase<Delta<Double>> {
        TropicalPayloads() {
            super(
                    new DeltaSerializer<>(DoubleSerializer.INSTANCE),
                    Delta.class,
                    deltas(1.0, Double.POSITIVE_INFINITY, 0.5));
        }
    }

    @Nested
    class ProvenancePayloads extends SerializerCase<Delta<Polynomial>> {
        ProvenancePayloads() {
            super(new DeltaSerializer<>(PolynomialSerializer.INSTANCE), Delta.class, deltas(Samples.polynomials()));
        }
    }

    @Nested
    class CovariancePayloads extends SerializerCase<Delta<CovarianceTriple>> {
        CovariancePayloads() {
            super(new DeltaSerializer<>(new CovarianceTripleSerializer(2)), Delta.class, deltas(Samples.triples2()));
        }
    }

    @Test
    void aNaturalDeltaIsSmall() throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(32);
        new DeltaSerializer<>(LongSerializer.INSTANCE)
                .serialize(new Delta<>(3, 1, Tuple.of(42L), 5L, (100L << 16) | 2, null), out);
        // epoch, atom, insert id (4 bytes: 6,553,602), flags, tuple (arity, 42 as a header and one byte), payload
        assertThat(out.length()).isEqualTo(1 + 1 + 4 + 1 + (1 + 2) + 8);
    }

    @Test
    void nullKeyAndPayloadRoundTrip() throws IOException {
        // Not in the suites above: Delta.equals does not accept null fields.
        DeltaSerializer<Long> s = new DeltaSerializer<>(LongSerializer.INSTANCE);
        Delta<Long> noKey = RoundTrip.of(s, new Delta<>(7, 0, null, 9L, 0, null));
        assertThat(noKey.epoch()).isEqualTo(7);
        assertThat(noKey.key()).isNull();
        assertThat(noKey.payload()).isEqualTo(9L);
        Delta<Long> noPayload = RoundTrip.of(s, new Delta<>(1, 2, Tuple.of("k"), null, 3, Tuple.of(1)));
        assertThat(noPayload.atom()).isEqualTo(2);
        assertThat(noPayload.partition()).isEqualTo(Tuple.of(1));
        assertThat(noPayload.key()).isEqualTo(Tuple.of("k"));
        assertThat(noPayload.payload()).isNull();
    }

    @Test
    void snapshotNestsThePayloadSerializer() throws IOException {
        SerializerSnapshots.assertRestoresAsIs(new DeltaSerializer<>(LongSerializer.INSTANCE));
        SerializerSnapshots.assertRestoresAsIs(new DeltaSerializer<>(new CovarianceTripleSerializer(4)));
        assertThat(SerializerSnapshots.compatibility(
                                new DeltaSerializer<>(LongSerializer.INSTANCE),
                                new DeltaSerializer<>(PolynomialSerializer.INSTANCE))
                        .isIncompatible())
                .isTrue();
    }
}
