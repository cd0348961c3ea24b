package io.flinkivm.flink.types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.core.semiring.LongComponent;
import io.flinkivm.core.semiring.Product;
import io.flinkivm.core.semiring.ProductSemiring;
import java.io.IOException;
import java.util.List;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

class ProductSerializerTest extends SerializerCase<Product> {

    private static final ProductSemiring SUM_MIN =
            ProductSemiring.of(List.of(LongComponent.INTEGER, LongComponent.MIN));

    ProductSerializerTest() {
        super(new ProductSerializer(SUM_MIN), Product.class, new Product[] {
            SUM_MIN.zero(),
            SUM_MIN.one(),
            SUM_MIN.payload(3, -250, 17),
            SUM_MIN.payload(Long.MAX_VALUE, Long.MIN_VALUE, Long.MAX_VALUE),
            SUM_MIN.payload(1, 0, -4)
        });
    }

    @Test
    void snapshotRecordsTheComponents() throws IOException {
        SerializerSnapshots.assertRestoresAsIs(new ProductSerializer(SUM_MIN));
        ProductSemiring other = ProductSemiring.of(List.of(LongComponent.INTEGER, LongComponent.MAX));
        SerializerSnapshots.assertIncompatible(new ProductSerializer(SUM_MIN), new ProductSerializer(other));
    }

    @Test
    void aCountZeroThatIsNotTheZeroIsCorruptData() throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(16);
        VarInts.writeSignedLong(0, out);
        VarInts.writeSignedLong(5, out);
        VarInts.writeSignedLong(0, out);
        assertThatThrownBy(() ->
                        new ProductSerializer(SUM_MIN).deserialize(new DataInputDeserializer(out.getCopyOfBuffer())))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("corrupt product(natural,integer,min) data");
    }

    @Test
    void payloadTypesPicksIt() {
        assertThat(PayloadTypes.of(SUM_MIN)).isEqualTo(new ProductTypeInfo(SUM_MIN));
    }
}
