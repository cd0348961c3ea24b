package io.flinkivm.flink.types;

import io.flinkivm.core.semiring.Polynomial;
import org.apache.flink.annotation.Internal;

/** Type information for provenance {@link Polynomial}s, serialized by {@link PolynomialSerializer}. */
@Internal
public final class PolynomialTypeInfo extends SingletonTypeInfo<Polynomial> {
    private static final long serialVersionUID = 1L;

    /** The only instance. */
    public static final PolynomialTypeInfo INSTANCE = new PolynomialTypeInfo();

    private PolynomialTypeInfo() {
        super(Polynomial.class, PolynomialSerializer.INSTANCE);
    }

    private Object readResolve() {
        return INSTANCE;
    }
}
