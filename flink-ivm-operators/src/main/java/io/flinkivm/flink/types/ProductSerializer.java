package io.flinkivm.flink.types;

import io.flinkivm.core.semiring.LongComponent;
import io.flinkivm.core.semiring.PayloadFormatException;
import io.flinkivm.core.semiring.Product;
import io.flinkivm.core.semiring.ProductSemiring;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSchemaCompatibility;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Serializer for the payloads of one {@link ProductSemiring}. Format (version 1): each component's
 * value as a zig-zag var-long, the count first (counts and sums of a few rows take a byte or two).
 * The snapshot records the components; restoring with other components is incompatible.
 */
@Internal
public final class ProductSerializer extends ImmutableSerializer<Product> {
    private static final long serialVersionUID = 1L;

    private final ProductSemiring semiring;

    public ProductSerializer(ProductSemiring semiring) {
        this.semiring = semiring;
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
            VarInts.writeSignedLong(p.get(i), out);
        }
    }

    @Override
    public Product deserialize(DataInputView in) throws IOException {
        long[] values = new long[semiring.arity()];
        for (int i = 0; i < values.length; i++) {
            values[i] = VarInts.readSignedLong(in);
        }
        try {
            return semiring.payload(values);
        } catch (PayloadFormatException e) {
            throw new IOException("corrupt " + semiring.name() + " data: " + e.getMessage(), e);
        }
    }

    @Override
    public void copy(DataInputView source, DataOutputView target) throws IOException {
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

    /** Writes a product's components after the count (their labels), for a serializer snapshot. */
    static void writeComponents(List<LongComponent> components, DataOutputView out) throws IOException {
        out.writeInt(components.size() - 1);
        for (LongComponent c : components.subList(1, components.size())) {
            out.writeUTF(c.label());
        }
    }

    /** Reads what {@link #writeComponents} wrote. */
    static List<LongComponent> readComponents(DataInputView in) throws IOException {
        int n = in.readInt();
        List<LongComponent> components = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            String label = in.readUTF();
            LongComponent c = LongComponent.byLabel(label);
            if (c == null) {
                throw new IOException("unknown product component '" + label + "' in a serializer snapshot");
            }
            components.add(c);
        }
        return components;
    }

    /** Snapshot of a {@link ProductSerializer}: records the components after the count. */
    public static final class ProductSerializerSnapshot implements TypeSerializerSnapshot<Product> {
        private static final int VERSION = 1;

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
            writeComponents(semiring.components(), out);
        }

        @Override
        public void readSnapshot(int readVersion, DataInputView in, ClassLoader userCodeClassLoader)
                throws IOException {
            if (readVersion != VERSION) {
                throw new IOException("unknown version " + readVersion + " of the product serializer snapshot");
            }
            semiring = ProductSemiring.of(readComponents(in));
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
