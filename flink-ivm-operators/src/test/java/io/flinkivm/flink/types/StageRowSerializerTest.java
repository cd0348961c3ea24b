package io.flinkivm.flink.types;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.engine.keys.StageRow;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Polynomial;
import java.io.IOException;
import org.apache.flink.api.common.typeutils.base.LongSerializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class StageRowSerializerTest {

    @SafeVarargs
    static <T> StageRow<T>[] rows(T... payloads) {
        Tuple[] tuples = Samples.tuples();
        @SuppressWarnings("unchecked")
        StageRow<T>[] out = new StageRow[payloads.length + 3];
        for (int i = 0; i < payloads.length; i++) {
            out[i] = i % 2 == 0
                    ? StageRow.keyRow(tuples[i % tuples.length], payloads[i], "line " + i)
                    : new StageRow<>(i, i % 3, tuples[i % tuples.length], payloads[i], null);
        }
        out[payloads.length] =
                new StageRow<>(Integer.MAX_VALUE - 1, Integer.MAX_VALUE, Tuple.EMPTY, payloads[0], "", true);
        out[payloads.length + 1] = new StageRow<>(0, 0, Tuple.of(Samples.NON_ASCII), payloads[0], Samples.LONG_STRING);
        out[payloads.length + 2] = new StageRow<>(StageRow.DROPPED, 0, tuples[0], payloads[0], null, true);
        return out;
    }

    @Nested
    class NaturalPayloads extends SerializerCase<StageRow<Long>> {
        NaturalPayloads() {
            super(new StageRowSerializer<>(LongSerializer.INSTANCE), StageRow.class, rows(1L, 2L, 3L));
        }
    }

    @Nested
    class ProvenancePayloads extends SerializerCase<StageRow<Polynomial>> {
        ProvenancePayloads() {
            super(new StageRowSerializer<>(PolynomialSerializer.INSTANCE), StageRow.class, rows(Samples.polynomials()));
        }
    }

    @Test
    void aWaitingRowIsSmall() throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(32);
        new StageRowSerializer<>(VarLongSerializer.INSTANCE)
                .serialize(new StageRow<>(2, 1, Tuple.of(42L), 5L, null), out);
        // atom + 1, step, flags, tuple (arity, 42 as a header and one byte), payload
        assertThat(out.length()).isEqualTo(1 + 1 + 1 + (1 + 2) + 1);
    }

    @Test
    void snapshotNestsThePayloadSerializer() throws IOException {
        SerializerSnapshots.assertRestoresAsIs(new StageRowSerializer<>(LongSerializer.INSTANCE));
        assertThat(SerializerSnapshots.compatibility(
                                new StageRowSerializer<>(LongSerializer.INSTANCE),
                                new StageRowSerializer<>(PolynomialSerializer.INSTANCE))
                        .isIncompatible())
                .isTrue();
    }
}
