package io.flinkivm.flink.types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.CovarianceSemiring;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.core.semiring.Semirings;
import java.io.IOException;
import java.math.BigInteger;
import java.util.List;
import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.java.typeutils.GenericTypeInfo;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.junit.jupiter.api.Test;

class PayloadTypesTest {

    private static final SerializerConfig NO_GENERICS = noGenerics();

    @Test
    void builtInSemiringsGetFlinkOrFlinkIvmTypes() {
        assertThat(PayloadTypes.of(Semirings.byName("natural"))).isEqualTo(Types.LONG);
        assertThat(PayloadTypes.of(Semirings.byName("boolean"))).isEqualTo(Types.BOOLEAN);
        assertThat(PayloadTypes.of(Semirings.byName("min-plus"))).isEqualTo(Types.DOUBLE);
        assertThat(PayloadTypes.of(Semirings.byName("max-plus"))).isEqualTo(Types.DOUBLE);
        assertThat(PayloadTypes.of(Semirings.byName("viterbi"))).isEqualTo(Types.DOUBLE);
        assertThat(PayloadTypes.of(Semirings.byName("provenance"))).isEqualTo(PolynomialTypeInfo.INSTANCE);
        assertThat(PayloadTypes.of(Semirings.byName("covariance:3"))).isEqualTo(new CovarianceTripleTypeInfo(3));
        assertThat(PayloadTypes.of(CovarianceSemiring.of(1))).isNotEqualTo(new CovarianceTripleTypeInfo(3));
    }

    @Test
    void everyBuiltInPayloadRoundTripsWithoutKryo() throws IOException {
        for (String name : List.of(
                "natural",
                "boolean",
                "min-plus",
                "max-plus",
                "viterbi",
                "provenance",
                "covariance:2",
                "covariance:20")) {
            roundTripsZeroOneAndSums(Semirings.byName(name));
        }
    }

    private static <T> void roundTripsZeroOneAndSums(Semiring<T> k) throws IOException {
        TypeSerializer<T> s = PayloadTypes.of(k).createSerializer(NO_GENERICS);
        T two = k.plus(k.one(), k.one());
        for (T payload : List.of(k.zero(), k.one(), two, k.times(two, two))) {
            assertThat(RoundTrip.of(s, payload))
                    .as("%s payload %s", k.name(), k.format(payload))
                    .isEqualTo(payload);
        }
        assertThat(RoundTrip.of(
                                new DeltaTypeInfo<>(PayloadTypes.of(k)).createSerializer(NO_GENERICS),
                                new Delta<>(1, 0, Tuple.of(1L), two, 0, null))
                        .payload())
                .isEqualTo(two);
    }

    @Test
    void aUsersOwnSemiringFallsBackToKryo() {
        TypeInformation<BigInteger> info = PayloadTypes.of(new BigNaturalSemiring());
        assertThat(info).isEqualTo(new GenericTypeInfo<>(BigInteger.class));
        assertThat(info.createSerializer(new SerializerConfigImpl()).getClass().getSimpleName())
                .isEqualTo("KryoSerializer");
        assertThatThrownBy(() -> DeltaTypeInfo.of(new BigNaturalSemiring()).createSerializer(NO_GENERICS))
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("java.math.BigInteger");
    }

    @Test
    void recordTypesForASemiring() {
        Semiring<?> provenance = Semirings.byName("provenance");
        assertThat(InputRecordTypeInfo.of(provenance))
                .isEqualTo(new InputRecordTypeInfo<>(PolynomialTypeInfo.INSTANCE));
        assertThat(ResultRecordTypeInfo.of(provenance))
                .isEqualTo(new ResultRecordTypeInfo<>(PolynomialTypeInfo.INSTANCE));
        assertThat(DeltaTypeInfo.of(provenance)).isEqualTo(new DeltaTypeInfo<>(PolynomialTypeInfo.INSTANCE));
        assertThat(RootUpdateTypeInfo.of(provenance)).isEqualTo(new RootUpdateTypeInfo<>(PolynomialTypeInfo.INSTANCE));
        assertThat(DeltaTypeInfo.of(provenance).payloadType()).isEqualTo(PolynomialTypeInfo.INSTANCE);
        assertThat(DeltaTypeInfo.of(provenance).getGenericParameters()).containsEntry("T", PolynomialTypeInfo.INSTANCE);
        assertThat(DeltaTypeInfo.of(provenance)).hasToString("Delta<Polynomial>");
        assertThat(new DeltaTypeInfo<>(Types.LONG).createSerializer(NO_GENERICS))
                .isEqualTo(new DeltaSerializer<>(Types.LONG.createSerializer(NO_GENERICS)));
    }

    private static SerializerConfig noGenerics() {
        Configuration conf = new Configuration();
        conf.set(PipelineOptions.GENERIC_TYPES, false);
        ExecutionConfig config = new ExecutionConfig();
        config.configure(conf, PayloadTypesTest.class.getClassLoader());
        return config.getSerializerConfig();
    }
}
