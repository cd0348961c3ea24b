package io.flinkivm.flink.types;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.semiring.LongComponent;
import io.flinkivm.core.semiring.Product;
import io.flinkivm.core.semiring.ProductRing;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProductRingSerializerTest extends SerializerCase<Product> {

    private static final ProductRing SUM_MIN_MAX = ProductRing.of(
            List.of(LongComponent.INTEGER, LongComponent.MIN, LongComponent.MAX, LongComponent.MIN_DOUBLE));

    ProductRingSerializerTest() {
        super(new ProductRingSerializer(SUM_MIN_MAX), Product.class, products());
    }

    private static Product[] products() {
        Product a = SUM_MIN_MAX.payload(1, -250, 17, 9, LongComponent.bits(-2.5));
        Product b = SUM_MIN_MAX.payload(1, 40, -3, 12, LongComponent.bits(7.25));
        Product sum = SUM_MIN_MAX.plus(a, SUM_MIN_MAX.plus(b, b));
        return new Product[] {
            SUM_MIN_MAX.zero(),
            SUM_MIN_MAX.one(),
            a,
            sum,
            // Taking a away again leaves b twice: multiplicities may be negative on the way.
            SUM_MIN_MAX.plus(sum, SUM_MIN_MAX.negate(a)),
            SUM_MIN_MAX.negate(sum)
        };
    }

    @Test
    void aMultisetKeepsItsValuesAndMultiplicities() throws IOException {
        Product twice = products()[4];
        Product back = RoundTrip.of(new ProductRingSerializer(SUM_MIN_MAX), twice);
        assertThat(back).isEqualTo(twice);
        assertThat(back.multiset(2).multiplicity(-3)).isEqualTo(2);
        assertThat(back.get(2)).isEqualTo(-3);
    }

    @Test
    void snapshotRecordsTheComponents() throws IOException {
        SerializerSnapshots.assertRestoresAsIs(new ProductRingSerializer(SUM_MIN_MAX));
        ProductRing other = ProductRing.of(List.of(LongComponent.INTEGER, LongComponent.MAX));
        SerializerSnapshots.assertIncompatible(
                new ProductRingSerializer(SUM_MIN_MAX), new ProductRingSerializer(other));
    }
}
