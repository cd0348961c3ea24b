package io.flinkivm.flink.types;

import io.flinkivm.core.semiring.Polynomial;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/** Type information for provenance {@link Polynomial}s, serialized by {@link PolynomialSerializer}. */
public final class PolynomialTypeInfo extends TypeInformation<Polynomial> {
    private static final long serialVersionUID = 1L;

    /** The only instance. */
    public static final PolynomialTypeInfo INSTANCE = new PolynomialTypeInfo();

    private PolynomialTypeInfo() {}

    @Override
    public boolean isBasicType() {
        return false;
    }

    @Override
    public boolean isTupleType() {
        return false;
    }

    @Override
    public int getArity() {
        return 1;
    }

    @Override
    public int getTotalFields() {
        return 1;
    }

    @Override
    public Class<Polynomial> getTypeClass() {
        return Polynomial.class;
    }

    @Override
    public boolean isKeyType() {
        return false;
    }

    @Override
    public TypeSerializer<Polynomial> createSerializer(SerializerConfig config) {
        return PolynomialSerializer.INSTANCE;
    }

    @Override
    public String toString() {
        return "Polynomial";
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof PolynomialTypeInfo other && other.canEqual(this);
    }

    @Override
    public int hashCode() {
        return PolynomialTypeInfo.class.getName().hashCode();
    }

    @Override
    public boolean canEqual(Object obj) {
        return obj instanceof PolynomialTypeInfo;
    }

    private Object readResolve() {
        return INSTANCE;
    }
}
