package io.flinkivm.flink.types;

import io.flinkivm.core.semiring.Chain;
import io.flinkivm.core.semiring.ChainComponent;
import io.flinkivm.core.semiring.Component;
import io.flinkivm.core.semiring.InPlaceSum;
import io.flinkivm.core.semiring.PayloadFormatException;
import io.flinkivm.core.semiring.Product;
import io.flinkivm.core.semiring.ProductSemiring;
import java.io.IOException;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSchemaCompatibility;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Serializer for the payloads of one {@link ProductSemiring}. Format: each component's value as a
 * zig-zag var-long, the count first (counts and sums of a few rows take a byte or two; a MIN of dates
 * its day number); a MIN or MAX over a chain of objects (strings, ...) as {@link ChainElements} writes
 * an element. The snapshot (version 2; version 1, without chains, is read too) records the components;
 * restoring with other components is incompatible. Where no component keeps objects, a payload kept as
 * its longs ({@link InPlacePayloadSerializer}) is written and read in the same bytes.
 */
@Internal
public final class ProductSerializer extends ImmutableSerializer<Product> implements InPlacePayloadSerializer<Product> {
    private static final long serialVersionUID = 1L;

    private final ProductSemiring semiring;
    /** Per component: its chain if it keeps objects, else null. */
    private final Chain[] objectChains;

    public ProductSerializer(ProductSemiring semiring) {
        this.semiring = semiring;
        this.objectChains = objectChains(semiring.components());
    }

    /** Per component: its chain if it keeps objects, else null. */
    static Chain[] objectChains(List<Component> components) {
        Chain[] out = new Chain[components.size()];
        for (int i = 0; i < out.length; i++) {
            if (components.get(i) instanceof ChainComponent c && c.holdsObjects()) {
                out[i] = c.chain();
            }
        }
        return out;
    }

    @Override
    public Product createInstance() {
        return semiring.zero();
    }

    @Override
    public void serialize(Product p, DataOutputView out) throws IOException {
        int n = semiring.arity();
        if (p.arity() != n) {
            throw new IllegalArgumentException(
                    "cannot serialize a product of " + p.arity() + " components as a " + semiring.name() + " payload");
        }
        for (int i = 0; i < n; i++) {
            if (objectChains[i] == null) {
                VarInts.writeSignedLong(p.get(i), out);
            } else {
                ChainElements.write(objectChains[i], p.get(i), p.object(i), out);
            }
        }
    }

    @Override
    public Product deserialize(DataInputView in) throws IOException {
        int n = semiring.arity();
        long[] values = new long[n];
        Object[] objects = semiring.hasObjects() ? new Object[n] : null;
        for (int i = 0; i < n; i++) {
            if (objectChains[i] == null) {
                values[i] = VarInts.readSignedLong(in);
            } else {
                values[i] = ChainElements.readTag(in);
                if (values[i] == Chain.VALUE) {
                    objects[i] = ChainElements.readValue(objectChains[i], in);
                }
            }
        }
        try {
            return semiring.payload(values, objects);
        } catch (PayloadFormatException e) {
            throw new IOException("corrupt " + semiring.name() + " data: " + e.getMessage(), e);
        }
    }

    @Override
    public InPlaceSum<Product> inPlaceSum() {
        return semiring.inPlaceSum();
    }

    @Override
    public void serializeLongs(long[] longs, DataOutputView out) throws IOException {
        if (semiring.hasObjects() || longs.length != semiring.arity()) {
            throw new IllegalArgumentException("cannot serialize " + longs.length + " longs as a " + semiring.name()
                    + " payload" + (semiring.hasObjects() ? " (it keeps objects)" : ""));
        }
        for (long v : longs) {
            VarInts.writeSignedLong(v, out);
        }
    }

    @Override
    public long[] deserializeLongs(DataInputView in) throws IOException {
        InPlaceSum<Product> sum = semiring.inPlaceSum();
        if (sum == null) {
            throw new IllegalStateException(semiring.name() + " keeps objects: its payloads are not read as longs");
        }
        long[] values = new long[semiring.arity()];
        for (int i = 0; i < values.length; i++) {
            values[i] = VarInts.readSignedLong(in);
        }
        try {
            sum.check(values);
        } catch (PayloadFormatException e) {
            throw new IOException("corrupt " + semiring.name() + " data: " + e.getMessage(), e);
        }
        return values;
    }

    @Override
    public void copy(DataInputView source, DataOutputView target) throws IOException {
        if (semiring.hasObjects()) {
            serialize(deserialize(source), target);
            return;
        }
        for (int i = 0; i < semiring.arity(); i++) {
            VarInts.writeSignedLong(VarInts.readSignedLong(source), target);
        }
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof ProductSerializer other && other.semiring.equals(semiring);
    }

    @Override
    public int hashCode() {
        return semiring.hashCode();
    }

    @Override
    public String toString() {
        return "ProductSerializer(" + semiring.name() + ")";
    }

    @Override
    public TypeSerializerSnapshot<Product> snapshotConfiguration() {
        return new ProductSerializerSnapshot(semiring);
    }

    /**
     * Snapshot of a {@link ProductSerializer}: records the components after the count (version 1: their
     * labels, before chains; version 2: {@link ChainElements#writeComponents}).
     */
    public static final class ProductSerializerSnapshot implements TypeSerializerSnapshot<Product> {
        private static final int VERSION = 2;

        private ProductSemiring semiring;

        /** For reading a snapshot. */
        public ProductSerializerSnapshot() {}

        ProductSerializerSnapshot(ProductSemiring semiring) {
            this.semiring = semiring;
        }

        @Override
        public int getCurrentVersion() {
            return VERSION;
        }

        @Override
        public void writeSnapshot(DataOutputView out) throws IOException {
            ChainElements.writeComponents(semiring.components(), out);
        }

        @Override
        public void readSnapshot(int readVersion, DataInputView in, ClassLoader userCodeClassLoader)
                throws IOException {
            if (readVersion != 1 && readVersion != VERSION) {
                throw new IOException("unknown version " + readVersion + " of the product serializer snapshot");
            }
            semiring = ProductSemiring.of(ChainElements.readComponents(in, readVersion == 1));
        }

        @Override
        public TypeSerializer<Product> restoreSerializer() {
            return new ProductSerializer(semiring);
        }

        @Override
        public TypeSerializerSchemaCompatibility<Product> resolveSchemaCompatibility(
                TypeSerializerSnapshot<Product> oldSerializerSnapshot) {
            return oldSerializerSnapshot instanceof ProductSerializerSnapshot old && old.semiring.equals(semiring)
                    ? TypeSerializerSchemaCompatibility.compatibleAsIs()
                    : TypeSerializerSchemaCompatibility.incompatible();
        }
    }
}
