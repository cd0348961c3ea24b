package io.flinkivm.flink.types;

import io.flinkivm.core.semiring.Chain;
import io.flinkivm.core.semiring.Component;
import io.flinkivm.core.semiring.ObjectMultiset;
import io.flinkivm.core.semiring.Product;
import io.flinkivm.core.semiring.ProductRing;
import io.flinkivm.core.semiring.ValueMultiset;
import java.io.IOException;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSchemaCompatibility;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Serializer for the payloads of one {@link ProductRing} (the SQL aggregates under deletes). Format: per
 * component, an integer as a signed varint, a MIN or MAX multiset as its number of values and then each
 * (encoded value, multiplicity) as signed varints, in value order; a multiset over a chain of objects
 * (strings, ...) each element as {@link ChainElements} writes it, then its multiplicity. The snapshot
 * (version 2; version 1, without chains, is read too) records the components; restoring with other
 * components is incompatible.
 */
@Internal
public final class ProductRingSerializer extends ImmutableSerializer<Product> {
    private static final long serialVersionUID = 1L;

    private final ProductRing ring;
    /** Per component: its chain if it keeps objects, else null. */
    private final Chain[] objectChains;

    public ProductRingSerializer(ProductRing ring) {
        this.ring = ring;
        this.objectChains = ProductSerializer.objectChains(ring.components());
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
            } else if (objectChains[i] != null) {
                Chain chain = objectChains[i];
                ObjectMultiset m = p.objectMultiset(i);
                VarInts.write(m.size(), out);
                m.forEach((tag, value, multiplicity) -> {
                    try {
                        ChainElements.write(chain, tag, value, out);
                        VarInts.writeSignedLong(multiplicity, out);
                    } catch (IOException e) {
                        failure[0] = e;
                    }
                });
            } else {
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
            }
            if (failure[0] != null) {
                throw failure[0];
            }
        }
    }

    @Override
    public Product deserialize(DataInputView in) throws IOException {
        int n = ring.arity();
        long[] values = new long[n];
        Object[] sets = new Object[n];
        try {
            for (int i = 0; i < n; i++) {
                if (!ring.isMultiset(i)) {
                    values[i] = VarInts.readSignedLong(in);
                    continue;
                }
                int size = VarInts.read(in);
                long[] v = new long[size];
                long[] k = new long[size];
                if (objectChains[i] == null) {
                    for (int j = 0; j < size; j++) {
                        v[j] = VarInts.readSignedLong(in);
                        k[j] = VarInts.readSignedLong(in);
                    }
                    sets[i] = ValueMultiset.ofSorted(v, k, size);
                    continue;
                }
                Object[] o = new Object[size];
                for (int j = 0; j < size; j++) {
                    v[j] = ChainElements.readTag(in);
                    o[j] = v[j] == Chain.VALUE ? ChainElements.readValue(objectChains[i], in) : null;
                    k[j] = VarInts.readSignedLong(in);
                }
                sets[i] = ObjectMultiset.ofSorted(objectChains[i], v, o, k, size);
            }
            return ring.of(values, sets);
        } catch (IllegalArgumentException e) { // PayloadFormatException too
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
        private static final int VERSION = 2;

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
            ChainElements.writeComponents(ring.components(), out);
        }

        @Override
        public void readSnapshot(int readVersion, DataInputView in, ClassLoader userCodeClassLoader)
                throws IOException {
            if (readVersion != 1 && readVersion != VERSION) {
                throw new IOException("unknown version " + readVersion + " of the product ring serializer snapshot");
            }
            List<Component> components = ChainElements.readComponents(in, readVersion == 1);
            ring = ProductRing.of(components);
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
