package io.flinkivm.flink.types;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.query.Tuple;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.common.typeutils.TypeInformationTestBase;
import org.apache.flink.util.InstantiationUtil;
import org.junit.jupiter.api.Test;

/**
 * Flink's type information contract (equals, hashCode, canEqual, Java serialization) over all of
 * flink-ivm's type information: any two of these are different types.
 */
class TypeInfoContractTest extends TypeInformationTestBase<TypeInformation<?>> {

    @Override
    protected TypeInformation<?>[] getTestData() {
        return new TypeInformation<?>[] {
            TupleTypeInfo.INSTANCE,
            PolynomialTypeInfo.INSTANCE,
            new CovarianceTripleTypeInfo(1),
            new CovarianceTripleTypeInfo(2),
            DeadLetterTypeInfo.INSTANCE,
            new InputRecordTypeInfo<>(Types.LONG),
            new InputRecordTypeInfo<>(Types.DOUBLE),
            new InputRecordTypeInfo<>(new CovarianceTripleTypeInfo(2)),
            new ResultRecordTypeInfo<>(Types.LONG),
            new ResultRecordTypeInfo<>(PolynomialTypeInfo.INSTANCE),
            new DeltaTypeInfo<>(Types.LONG),
            new DeltaTypeInfo<>(Types.BOOLEAN),
            new RootUpdateTypeInfo<>(Types.LONG),
            new RootUpdateTypeInfo<>(new CovarianceTripleTypeInfo(1)),
            new StageRowTypeInfo<>(Types.LONG),
            new StageRowTypeInfo<>(PolynomialTypeInfo.INSTANCE),
        };
    }

    @Test
    void shape() {
        for (TypeInformation<?> info : getTestData()) {
            assertThat(info.isBasicType()).as("%s basic", info).isFalse();
            assertThat(info.isTupleType()).as("%s tuple", info).isFalse();
            assertThat(info.getArity()).as("%s arity", info).isEqualTo(1);
            assertThat(info.getTotalFields()).as("%s fields", info).isEqualTo(1);
            assertThat(info.isKeyType()).as("%s key", info).isEqualTo(info == TupleTypeInfo.INSTANCE);
        }
        assertThat(TupleTypeInfo.INSTANCE.getTypeClass()).isEqualTo(Tuple.class);
        assertThat(new InputRecordTypeInfo<>(Types.LONG).getTypeClass())
                .isEqualTo(io.flinkivm.flink.types.InputRecord.class);
        assertThat(new InputRecordTypeInfo<>(Types.LONG)).hasToString("InputRecord<Long>");
        assertThat(new CovarianceTripleTypeInfo(2)).hasToString("CovarianceTriple(m = 2)");
    }

    @Test
    void singletonsStaySingletons() throws Exception {
        assertThat(InstantiationUtil.clone(TupleTypeInfo.INSTANCE)).isSameAs(TupleTypeInfo.INSTANCE);
        assertThat(InstantiationUtil.clone(PolynomialTypeInfo.INSTANCE)).isSameAs(PolynomialTypeInfo.INSTANCE);
        assertThat(InstantiationUtil.clone(DeadLetterTypeInfo.INSTANCE)).isSameAs(DeadLetterTypeInfo.INSTANCE);
    }
}
