package io.flinkivm.flink.types;

import io.flinkivm.core.semiring.CovarianceTriple;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/**
 * Type information for the payloads of {@code covariance:m} and, signed, of {@code covariance-ring:m}:
 * {@link CovarianceTriple}s over m features, serialized by {@link CovarianceTripleSerializer}.
 */
@Internal
public final class CovarianceTripleTypeInfo extends OpaqueTypeInfo<CovarianceTriple> {
    private static final long serialVersionUID = 1L;

    private final int dimension;
    private final boolean signed;

    /** Type information for the covariance semiring's triples over {@code dimension ≥ 1} features. */
    public CovarianceTripleTypeInfo(int dimension) {
        this(dimension, false);
    }

    /** Type information for triples over {@code dimension ≥ 1} features; {@code signed}: the ring's. */
    public CovarianceTripleTypeInfo(int dimension, boolean signed) {
        super(CovarianceTriple.class);
        if (dimension < 1) {
            throw new IllegalArgumentException("a covariance triple needs at least one feature, got m = " + dimension);
        }
        this.dimension = dimension;
        this.signed = signed;
    }

    /** The number of features m. */
    public int dimension() {
        return dimension;
    }

    @Override
    public TypeSerializer<CovarianceTriple> createSerializer(SerializerConfig config) {
        return new CovarianceTripleSerializer(dimension, signed);
    }

    @Override
    public String toString() {
        return "CovarianceTriple(m = " + dimension + (signed ? ", signed" : "") + ")";
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof CovarianceTripleTypeInfo other
                && other.canEqual(this)
                && other.dimension == dimension
                && other.signed == signed;
    }

    @Override
    public int hashCode() {
        return 0x636f76 + dimension + (signed ? 0x10000 : 0);
    }

    @Override
    public boolean canEqual(Object obj) {
        return obj instanceof CovarianceTripleTypeInfo;
    }
}
