package io.flinkivm.flink.types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.core.semiring.Chain;
import io.flinkivm.core.semiring.ChainComponent;
import io.flinkivm.core.semiring.LongComponent;
import io.flinkivm.core.semiring.Product;
import io.flinkivm.core.semiring.ProductRing;
import io.flinkivm.core.semiring.ProductSemiring;
import io.flinkivm.core.semiring.Semirings;
import java.io.IOException;
import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.util.List;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** The product payloads with MIN and MAX over chains: of the semiring and of its ring, in state and on the wire. */
class ChainProductSerializerTest {

    static final ProductSemiring CHAINS = ProductSemiring.of(List.of(
            ChainComponent.min(Chain.of(Chain.Kind.STRING, "STRING")),
            ChainComponent.max(Chain.of(Chain.Kind.DATE, "DATE")),
            LongComponent.INTEGER,
            ChainComponent.min(Chain.decimal(12, 2, "DECIMAL(12, 2)")),
            ChainComponent.max(Chain.decimal(30, 2, "DECIMAL(30, 2)")),
            ChainComponent.min(Chain.of(Chain.Kind.TIMESTAMP_NANOS, "TIMESTAMP(9)")),
            ChainComponent.max(Chain.of(Chain.Kind.BOOLEAN, "BOOLEAN"))));

    static final ProductRing RING = (ProductRing) Semirings.ringFor(CHAINS);

    /** A row: a name, a date, a sum, a price, a wide decimal, a timestamp, a flag. */
    static Product row(String name, String date, long sum, String price, String wide, String ts, String flag) {
        return CHAINS.parse("1;" + name + ";" + date + ";" + sum + ";" + price + ";" + wide + ";" + ts + ";" + flag);
    }

    static Product[] semiringPayloads() {
        Product a = row(
                "'widget'",
                "2024-05-01",
                -3,
                "-10.50",
                "123456789012345678901234.56",
                "1969-12-31T23:59:59.999999999",
                "true");
        Product b = row("'\uD841\uDF0E \u00e9'", "top", 7, "bottom", "bottom", "top", "false");
        Product c = row("''", "1900-01-01", 0, "99999999.99", "-0.01", "2262-04-12T00:00:00.000000001", "bottom");
        return new Product[] {
            CHAINS.zero(),
            CHAINS.one(),
            a,
            b,
            c,
            CHAINS.plus(a, b),
            CHAINS.times(b, c),
            CHAINS.plus(CHAINS.times(a, c), b)
        };
    }

    static Product[] ringPayloads() {
        Product[] rows = semiringPayloads();
        Product a = RING.lift(rows[2]);
        Product b = RING.lift(rows[3]);
        Product c = RING.lift(rows[4]);
        Product sum = RING.plus(a, RING.plus(b, RING.times(b, c)));
        return new Product[] {
            RING.zero(), RING.one(), a, b, sum, RING.negate(sum), RING.plus(sum, RING.negate(b)), RING.times(sum, sum)
        };
    }

    @Nested
    class Semiring extends SerializerCase<Product> {
        Semiring() {
            super(new ProductSerializer(CHAINS), Product.class, semiringPayloads());
        }
    }

    @Nested
    class Ring extends SerializerCase<Product> {
        Ring() {
            super(new ProductRingSerializer(RING), Product.class, ringPayloads());
        }
    }

    @Test
    void everyPayloadComesBackEqualWithItsObjects() throws IOException {
        for (Product p : semiringPayloads()) {
            Product back = RoundTrip.of(new ProductSerializer(CHAINS), p);
            assertThat(back).isEqualTo(p).hasSameHashCodeAs(p);
            assertThat(back.object(1)).isEqualTo(p.object(1));
        }
        for (Product p : ringPayloads()) {
            Product back = RoundTrip.of(new ProductRingSerializer(RING), p);
            assertThat(back).isEqualTo(p).hasSameHashCodeAs(p);
            assertThat(RING.format(back)).isEqualTo(RING.format(p));
        }
        Product widget = semiringPayloads()[2];
        assertThat(RoundTrip.of(new ProductSerializer(CHAINS), widget).object(6))
                .isEqualTo(LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_999));
        assertThat(RoundTrip.of(new ProductSerializer(CHAINS), widget).object(5))
                .isEqualTo(new BigDecimal("123456789012345678901234.56"));
    }

    @Test
    void snapshotsRecordTheChainsAndRefuseOthers() throws IOException {
        SerializerSnapshots.assertRestoresAsIs(new ProductSerializer(CHAINS));
        SerializerSnapshots.assertRestoresAsIs(new ProductRingSerializer(RING));
        ProductSemiring otherType = ProductSemiring.of(List.of(ChainComponent.min(Chain.of(Chain.Kind.DATE, "DATE"))));
        ProductSemiring otherDirection =
                ProductSemiring.of(List.of(ChainComponent.max(Chain.of(Chain.Kind.STRING, "STRING"))));
        ProductSemiring strings =
                ProductSemiring.of(List.of(ChainComponent.min(Chain.of(Chain.Kind.STRING, "STRING"))));
        SerializerSnapshots.assertIncompatible(new ProductSerializer(strings), new ProductSerializer(otherType));
        SerializerSnapshots.assertIncompatible(new ProductSerializer(strings), new ProductSerializer(otherDirection));
        SerializerSnapshots.assertIncompatible(
                new ProductRingSerializer((ProductRing) Semirings.ringFor(strings)),
                new ProductRingSerializer((ProductRing) Semirings.ringFor(otherDirection)));
    }

    @Test
    void aSnapshotOfVersionOneWithoutChainsIsStillRead() throws IOException {
        ProductSemiring sumMin = ProductSemiring.of(List.of(LongComponent.INTEGER, LongComponent.MIN));
        ProductRing ring = (ProductRing) Semirings.ringFor(sumMin);
        checkVersionOne(ProductSerializer.ProductSerializerSnapshot.class.getName(), new ProductSerializer(sumMin));
        checkVersionOne(
                ProductRingSerializer.ProductRingSerializerSnapshot.class.getName(), new ProductRingSerializer(ring));
    }

    /** A snapshot as flink-ivm wrote it before chains: version 1, the labels after the count. */
    private static void checkVersionOne(String snapshotClass, TypeSerializer<Product> now) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(64);
        out.writeUTF(snapshotClass);
        out.writeInt(1);
        out.writeInt(2);
        out.writeUTF("integer");
        out.writeUTF("min");
        TypeSerializerSnapshot<Product> old = TypeSerializerSnapshot.readVersionedSnapshot(
                new DataInputDeserializer(out.getCopyOfBuffer()), ChainProductSerializerTest.class.getClassLoader());
        assertThat(now.snapshotConfiguration().resolveSchemaCompatibility(old).isCompatibleAsIs())
                .isTrue();
        assertThat(old.restoreSerializer()).isEqualTo(now);
    }

    @Test
    void corruptElementsAreIoErrors() {
        ProductSemiring strings =
                ProductSemiring.of(List.of(ChainComponent.min(Chain.of(Chain.Kind.STRING, "STRING"))));
        DataOutputSerializer out = new DataOutputSerializer(16);
        assertThatThrownBy(() -> {
                    VarInts.writeSignedLong(1, out);
                    out.writeByte(7);
                    new ProductSerializer(strings).deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));
                })
                .isInstanceOf(IOException.class)
                .hasMessageContaining("corrupt chain element: tag byte 7");
    }
}
