package io.flinkivm.flink.types;

import io.flinkivm.core.semiring.PayloadFormatException;
import io.flinkivm.core.semiring.Product;
import io.flinkivm.core.semiring.ProductRing;
import io.flinkivm.core.semiring.ValueMultiset;
import java.io.IOException;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSchemaCompatibility;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Serializer for the payloads of one {@link ProductRing} (the SQL aggregates under deletes). Format
 * (version 1): per component, an integer as a signed varint, a MIN or MAX multiset as its number of
 * values and then each (encoded value, multiplicity) as signed varints, in value order. The snapshot
 * records the components; restoring with other components is incompatible.
 */
@Internal
public final class ProductRingSerializer extends ImmutableSerializer<Product> {
    private static final long serialVersionUID = 1L;

    private final ProductRing ring;

    public ProductRingSerializer(ProductRing ring) {
        this.ring = ring;
    }

    @Override
    public Product createInstance() {
        return ring.zero();
    }

    @Override
    public void serialize(Product p, DataOutputView out) throws IOException {
        int n = ring.arity();
        if (p.arity() != n) {
            throw new IllegalArgumentException(
                    "cannot serialize a product of " + p.arity() + " components as a " + ring.name() + " payload");
        }
        IOException[] failure = new IOException[1];
        for (int i = 0; i < n; i++) {
            if (!ring.isMultiset(i)) {
                VarInts.writeSignedLong(p.get(i), out);
                continue;
            }
            ValueMultiset m = p.multiset(i);
            VarInts.write(m.size(), out);
            m.forEach((value, multiplicity) -> {
                try {
                    VarInts.writeSignedLong(value, out);
                    VarInts.writeSignedLong(multiplicity, out);
                } catch (IOException e) {
                    failure[0] = e;
                }
            });
            if (failure[0] != null) {
                throw failure[0];
            }
        }
    }

    @Override
    public Product deserialize(DataInputView in) throws IOException {
        int n = ring.arity();
        long[] values = new long[n];
        ValueMultiset[] sets = new ValueMultiset[n];
        for (int i = 0; i < n; i++) {
            if (!ring.isMultiset(i)) {
                values[i] = VarInts.readSignedLong(in);
                continue;
            }
            int size = VarInts.read(in);
            long[] v = new long[size];
            long[] k = new long[size];
            for (int j = 0; j < size; j++) {
                v[j] = VarInts.readSignedLong(in);
                k[j] = VarInts.readSignedLong(in);
            }
            sets[i] = ValueMultiset.ofSorted(v, k, size);
        }
        try {
            return ring.of(values, sets);
        } catch (PayloadFormatException e) {
            throw new IOException("corrupt " + ring.name() + " data: " + e.getMessage(), e);
        }
    }

    @Override
    public void copy(DataInputView source, DataOutputView target) throws IOException {
        serialize(deserialize(source), target);
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof ProductRingSerializer other && other.ring.equals(ring);
    }

    @Override
    public int hashCode() {
        return ring.hashCode();
    }

    @Override
    public String toString() {
        return "ProductRingSerializer(" + ring.name() + ")";
    }

    @Override
    public TypeSerializerSnapshot<Product> snapshotConfiguration() {
        return new ProductRingSerializerSnapshot(ring);
    }

    /** Snapshot of a {@link ProductRingSerializer}: records the components after the count. */
    public static final class ProductRingSerializerSnapshot implements TypeSerializerSnapshot<Product> {
        private static final int VERSION = 1;

        private ProductRing ring;

        /** For reading a snapshot. */
        public ProductRingSerializerSnapshot() {}

        ProductRingSerializerSnapshot(ProductRing ring) {
            this.ring = ring;
        }

        @Override
        public int getCurrentVersion() {
            return VERSION;
        }

        @Override
        public void writeSnapshot(DataOutputView out) throws IOException {
            ProductSerializer.writeComponents(ring.components(), out);
        }

        @Override
        public void readSnapshot(int readVersion, DataInputView in, ClassLoader userCodeClassLoader)
                throws IOException {
            if (readVersion != VERSION) {
                throw new IOException("unknown version " + readVersion + " of the product ring serializer snapshot");
            }
            ring = ProductRing.of(ProductSerializer.readComponents(in));
        }

        @Override
        public TypeSerializer<Product> restoreSerializer() {
            return new ProductRingSerializer(ring);
        }

        @Override
        public TypeSerializerSchemaCompatibility<Product> resolveSchemaCompatibility(
                TypeSerializerSnapshot<Product> oldSerializerSnapshot) {
            return oldSerializerSnapshot instanceof ProductRingSerializerSnapshot old && old.ring.equals(ring)
                    ? TypeSerializerSchemaCompatibility.compatibleAsIs()
                    : TypeSerializerSchemaCompatibility.incompatible();
        }
    }
}
