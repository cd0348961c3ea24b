package io.flinkivm.flink.types;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.CovarianceTriple;
import io.flinkivm.core.semiring.Polynomial;
import java.io.IOException;
import org.apache.flink.api.common.typeutils.base.BooleanSerializer;
import org.apache.flink.api.common.typeutils.base.DoubleSerializer;
import org.apache.flink.api.common.typeutils.base.LongSerializer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class RootUpdateSerializerTest {

    @SafeVarargs
    static <T> RootUpdate<T>[] updates(T... payloads) {
        Tuple[] tuples = Samples.tuples();
        @SuppressWarnings("unchecked")
        RootUpdate<T>[] out = new RootUpdate[payloads.length];
        for (int i = 0; i < payloads.length; i++) {
            out[i] = new RootUpdate<>(
                    1L + i * 1_000_000L, i, tuples[i % tuples.length], payloads[i], i % 2 == 1 ? Tuple.of(i) : null);
        }
        return out;
    }

    @Nested
    class NaturalPayloads extends SerializerCase<RootUpdate<Long>> {
        NaturalPayloads() {
            super(new RootUpdateSerializer<>(LongSerializer.INSTANCE), RootUpdate.class, updates(1L, 2L, 3L));
        }
    }

    @Nested
    class BooleanPayloads extends SerializerCase<RootUpdate<Boolean>> {
        BooleanPayloads() {
            super(new RootUpdateSerializer<>(BooleanSerializer.INSTANCE), RootUpdate.class, updates(true, false));
        }
    }

    @Nested
    class TropicalPayloads extends SerializerCase<RootUpdate<Double>> {
        TropicalPayloads() {
            super(new RootUpdateSerializer<>(DoubleSerializer.INSTANCE), RootUpdate.class, updates(1.0, 0.0, -7.25));
        }
    }

    @Nested
    class ProvenancePayloads extends SerializerCase<RootUpdate<Polynomial>> {
        ProvenancePayloads() {
            super(
                    new RootUpdateSerializer<>(PolynomialSerializer.INSTANCE),
                    RootUpdate.class,
                    updates(Samples.polynomials()));
        }
    }

    @Nested
    class CovariancePayloads extends SerializerCase<RootUpdate<CovarianceTriple>> {
        CovariancePayloads() {
            super(
                    new RootUpdateSerializer<>(new CovarianceTripleSerializer(2)),
                    RootUpdate.class,
                    updates(Samples.triples2()));
        }
    }

    @Test
    void nullTupleAndPayloadRoundTrip() throws IOException {
        // Not in the suites above: RootUpdate.equals does not accept null fields.
        RootUpdateSerializer<Long> s = new RootUpdateSerializer<>(LongSerializer.INSTANCE);
        RootUpdate<Long> noTuple = RoundTrip.of(s, RootUpdate.of(3, 2, null, 4L));
        assertThat(noTuple.tree()).isEqualTo(2);
        assertThat(noTuple.epoch()).isEqualTo(3);
        assertThat(noTuple.tuple()).isNull();
        assertThat(noTuple.payload()).isEqualTo(4L);
        RootUpdate<Long> noPayload = RoundTrip.of(s, RootUpdate.of(1, 7, Tuple.of(Samples.NON_ASCII), null));
        assertThat(noPayload.tuple()).isEqualTo(Tuple.of(Samples.NON_ASCII));
        assertThat(noPayload.payload()).isNull();
    }

    @Test
    void snapshotNestsThePayloadSerializer() throws IOException {
        SerializerSnapshots.assertRestoresAsIs(new RootUpdateSerializer<>(BooleanSerializer.INSTANCE));
        assertThat(SerializerSnapshots.compatibility(
                                new RootUpdateSerializer<>(BooleanSerializer.INSTANCE),
                                new RootUpdateSerializer<>(LongSerializer.INSTANCE))
                        .isIncompatible())
                .isTrue();
    }
}
