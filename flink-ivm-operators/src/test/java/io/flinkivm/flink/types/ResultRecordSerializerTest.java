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

class ResultRecordSerializerTest {

    @SafeVarargs
    static <T> ResultRecord<T>[] records(T... payloads) {
        Tuple[] tuples = Samples.tuples();
        @SuppressWarnings("unchecked")
        ResultRecord<T>[] out = new ResultRecord[payloads.length + 9];
        for (int i = 0; i < payloads.length; i++) {
            out[i] = ResultRecord.row(i, 10L * i, tuples[i % tuples.length], payloads[i], i % 2 == 0);
        }
        out[payloads.length] = ResultRecord.end(3, 17, 0, true);
        out[payloads.length + 1] = ResultRecord.end(Long.MAX_VALUE, Long.MIN_VALUE, 123_456_789_012L, false);
        out[payloads.length + 2] =
                ResultRecord.of(1, 2, false, null, payloads[0], -1, true, null, ResultRecord.Kind.SNAPSHOT);
        out[payloads.length + 3] = ResultRecord.of(1, 2, true, Tuple.of("x"), null, 5, false, new long[] {0, 2}, null);
        out[payloads.length + 4] = ResultRecord.end(40, 40, 7, true, new long[] {10, 0, Long.MAX_VALUE, 30});
        int k = 0;
        for (ResultRecord.Kind kind : new ResultRecord.Kind[] {
            ResultRecord.Kind.INSERT,
            ResultRecord.Kind.UPDATE_BEFORE,
            ResultRecord.Kind.UPDATE_AFTER,
            ResultRecord.Kind.DELETE
        }) {
            out[payloads.length + 5 + k] = ResultRecord.change(
                    9, 9, kind, tuples[k % tuples.length], payloads[k % payloads.length], k % 2 == 0);
            k++;
        }
        return out;
    }

    @Nested
    class NaturalPayloads extends SerializerCase<ResultRecord<Long>> {
        NaturalPayloads() {
            super(new ResultRecordSerializer<>(LongSerializer.INSTANCE), ResultRecord.class, records(1L, 2L, 0L));
        }
    }

    @Nested
    class BooleanPayloads extends SerializerCase<ResultRecord<Boolean>> {
        BooleanPayloads() {
            super(new ResultRecordSerializer<>(BooleanSerializer.INSTANCE), ResultRecord.class, records(true, false));
        }
    }

    @Nested
    class TropicalPayloads extends SerializerCase<ResultRecord<Double>> {
        TropicalPayloads() {
            super(
                    new ResultRecordSerializer<>(DoubleSerializer.INSTANCE),
                    ResultRecord.class,
                    records(0.0, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 0.25, -3.5));
        }
    }

    @Nested
    class ProvenancePayloads extends SerializerCase<ResultRecord<Polynomial>> {
        ProvenancePayloads() {
            super(
                    new ResultRecordSerializer<>(PolynomialSerializer.INSTANCE),
                    ResultRecord.class,
                    records(Samples.polynomials()));
        }
    }

    @Nested
    class CovariancePayloads extends SerializerCase<ResultRecord<CovarianceTriple>> {
        CovariancePayloads() {
            super(
                    new ResultRecordSerializer<>(new CovarianceTripleSerializer(2)),
                    ResultRecord.class,
                    records(Samples.triples2()));
        }
    }

    @Test
    void snapshotNestsThePayloadSerializer() throws IOException {
        SerializerSnapshots.assertRestoresAsIs(new ResultRecordSerializer<>(PolynomialSerializer.INSTANCE));
        assertThat(SerializerSnapshots.compatibility(
                                new ResultRecordSerializer<>(LongSerializer.INSTANCE),
                                new ResultRecordSerializer<>(DoubleSerializer.INSTANCE))
                        .isIncompatible())
                .isTrue();
    }
}
