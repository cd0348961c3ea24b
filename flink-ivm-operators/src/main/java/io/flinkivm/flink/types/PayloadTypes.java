package io.flinkivm.flink.types;

import io.flinkivm.core.semiring.CovarianceTriple;
import io.flinkivm.core.semiring.Polynomial;
import io.flinkivm.core.semiring.ProductRing;
import io.flinkivm.core.semiring.ProductSemiring;
import io.flinkivm.core.semiring.Ring;
import io.flinkivm.core.semiring.Semiring;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.base.LongSerializer;
import org.apache.flink.api.java.typeutils.GenericTypeInfo;

/**
 * The Flink type of a semiring's payloads, chosen by {@link Semiring#payloadClass()}: {@code Long}
 * (natural) → {@link Types#LONG}, {@code Boolean} (boolean) → {@link Types#BOOLEAN}, {@code Double}
 * (min-plus, max-plus, viterbi) → {@link Types#DOUBLE}, {@link Polynomial} (provenance) →
 * {@link PolynomialTypeInfo}, {@link CovarianceTriple} (covariance:m) → {@link CovarianceTripleTypeInfo}
 * with m taken from the semiring's zero, {@link io.flinkivm.core.semiring.Product} ({@link ProductSemiring}) →
 * {@link ProductTypeInfo}.
 *
 * <p>Any other payload class (a user's own semiring) gets a {@link GenericTypeInfo}, i.e. Kryo. Give
 * Kryo a serializer for it by configuration, e.g.
 * <pre>{@code
 * pipeline.serialization-config:
 *   - "com.example.MyPayload: {type: kryo, kryo-type: registered, class: com.example.MyPayloadKryoSerializer}"
 * }</pre>
 * Such a job fails at graph-build time with {@code pipeline.generic-types: false}. To avoid Kryo,
 * build the record types from your own type information instead, e.g.
 * {@code new DeltaTypeInfo<>(myPayloadTypeInfo)}.
 */
@Internal
public final class PayloadTypes {
    private PayloadTypes() {}

    /** The type information of {@code semiring}'s payloads. */
    public static <T> TypeInformation<T> of(Semiring<T> semiring) {
        Class<T> payloadClass = semiring.payloadClass();
        TypeInformation<?> info;
        if (payloadClass == Long.class) {
            info = Types.LONG;
        } else if (payloadClass == Boolean.class) {
            info = Types.BOOLEAN;
        } else if (payloadClass == Double.class) {
            info = Types.DOUBLE;
        } else if (payloadClass == Polynomial.class) {
            info = PolynomialTypeInfo.INSTANCE;
        } else if (semiring instanceof ProductSemiring product) {
            info = new ProductTypeInfo(product);
        } else if (semiring instanceof ProductRing ring) {
            info = new ProductTypeInfo(ring);
        } else if (payloadClass == CovarianceTriple.class) {
            info = new CovarianceTripleTypeInfo(
                    CovarianceTriple.class.cast(semiring.zero()).dimension(), semiring instanceof Ring<T>);
        } else {
            return new GenericTypeInfo<>(payloadClass);
        }
        return cast(info, payloadClass);
    }

    /** Safe: {@code info}'s type class is {@code payloadClass}, checked here. */
    @SuppressWarnings("unchecked")
    private static <T> TypeInformation<T> cast(TypeInformation<?> info, Class<T> payloadClass) {
        if (info.getTypeClass() != payloadClass) {
            throw new IllegalStateException(info + " does not describe " + payloadClass.getName());
        }
        return (TypeInformation<T>) info;
    }

    /**
     * The serializer of payloads in state: {@link VarLongSerializer} in place of Flink's
     * {@code LongSerializer} (natural-number payloads are mostly small), any other as it is.
     */
    @SuppressWarnings("unchecked") // LongSerializer serializes Longs, as VarLongSerializer does
    public static <T> TypeSerializer<T> inState(TypeSerializer<T> serializer) {
        return serializer instanceof LongSerializer ? (TypeSerializer<T>) VarLongSerializer.INSTANCE : serializer;
    }
}
