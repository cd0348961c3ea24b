package io.flinkivm.flink.types;

import io.flinkivm.core.semiring.Product;
import io.flinkivm.core.semiring.ProductRing;
import io.flinkivm.core.semiring.ProductSemiring;
import io.flinkivm.core.semiring.Semiring;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/**
 * Type information for the payloads of a {@link ProductSemiring}, serialized by {@link ProductSerializer},
 * or of a {@link ProductRing}, serialized by {@link ProductRingSerializer}.
 */
@Internal
public final class ProductTypeInfo extends OpaqueTypeInfo<Product> {
    private static final long serialVersionUID = 1L;

    private final Semiring<Product> semiring;

    public ProductTypeInfo(ProductSemiring semiring) {
        super(Product.class);
        this.semiring = semiring;
    }

    public ProductTypeInfo(ProductRing ring) {
        super(Product.class);
        this.semiring = ring;
    }

    @Override
    public TypeSerializer<Product> createSerializer(SerializerConfig config) {
        return semiring instanceof ProductRing ring
                ? new ProductRingSerializer(ring)
                : new ProductSerializer((ProductSemiring) semiring);
    }

    @Override
    public String toString() {
        return "Product(" + semiring.name() + ")";
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof ProductTypeInfo other && other.canEqual(this) && other.semiring.equals(semiring);
    }

    @Override
    public int hashCode() {
        return semiring.hashCode();
    }

    @Override
    public boolean canEqual(Object obj) {
        return obj instanceof ProductTypeInfo;
    }
}
