package io.flinkivm.flink.types;

import io.flinkivm.core.semiring.CovarianceTriple;
import java.io.IOException;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSchemaCompatibility;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Serializer for {@link CovarianceTriple}s over a fixed number m of features. Format (version 1),
 * fixed length {@code 8 + 8m + 8m²} bytes: the count (long), the m sums, the m×m products
 * (row-major, doubles). A signed serializer (the covariance ring's, {@code covariance-ring:m}) reads
 * any count, the other only the semiring's payloads. The snapshot (version 2; 1 before signed ones)
 * records m and whether signed; restoring with a different m or sign is incompatible.
 */
@Internal
public final class CovarianceTripleSerializer extends TypeSerializer<CovarianceTriple> {
    private static final long serialVersionUID = 1L;

    private final int dimension;
    private final boolean signed;
    private final CovarianceTriple zero;

    /** A serializer for the covariance semiring's triples over {@code dimension ≥ 1} features. */
    public CovarianceTripleSerializer(int dimension) {
        this(dimension, false);
    }

    /** A serializer for triples over {@code dimension ≥ 1} features; {@code signed}: the ring's, any count. */
    public CovarianceTripleSerializer(int dimension, boolean signed) {
        if (dimension < 1 || dimension > 16_383) {
            throw new IllegalArgumentException(
                    "a covariance triple serializer needs 1 ≤ m ≤ 16383 features, got m = " + dimension);
        }
        this.dimension = dimension;
        this.signed = signed;
        this.zero = CovarianceTriple.zero(dimension);
    }

    /** The number of features m. */
    public int dimension() {
        return dimension;
    }

    @Override
    public boolean isImmutableType() {
        return true;
    }

    @Override
    public CovarianceTripleSerializer duplicate() {
        return this;
    }

    @Override
    public CovarianceTriple createInstance() {
        return zero;
    }

    @Override
    public CovarianceTriple copy(CovarianceTriple from) {
        return from;
    }

    @Override
    public CovarianceTriple copy(CovarianceTriple from, CovarianceTriple reuse) {
        return from;
    }

    @Override
    public int getLength() {
        return 8 + 8 * dimension + 8 * dimension * dimension;
    }

    @Override
    public void serialize(CovarianceTriple t, DataOutputView out) throws IOException {
        int m = dimension;
        if (t.dimension() != m) {
            throw new IllegalArgumentException("cannot serialize a covariance triple over " + t.dimension()
                    + " features with the serializer for covariance:" + m);
        }
        out.writeLong(t.count());
        for (int i = 0; i < m; i++) {
            out.writeDouble(t.sum(i));
        }
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < m; j++) {
                out.writeDouble(t.product(i, j));
            }
        }
    }

    @Override
    public CovarianceTriple deserialize(DataInputView in) throws IOException {
        int m = dimension;
        long count = in.readLong();
        double[] sums = new double[m];
        for (int i = 0; i < m; i++) {
            sums[i] = in.readDouble();
        }
        double[] products = new double[m * m];
        for (int k = 0; k < products.length; k++) {
            products[k] = in.readDouble();
        }
        try {
            return signed ? CovarianceTriple.signed(count, sums, products) : CovarianceTriple.of(count, sums, products);
        } catch (IllegalArgumentException e) {
            throw new IOException("corrupt covariance:" + m + " data: " + e.getMessage(), e);
        }
    }

    @Override
    public CovarianceTriple deserialize(CovarianceTriple reuse, DataInputView in) throws IOException {
        return deserialize(in);
    }

    @Override
    public void copy(DataInputView source, DataOutputView target) throws IOException {
        // Value by value: DataOutputSerializer#write(DataInputView, int) does not grow its buffer.
        int values = 1 + dimension + dimension * dimension;
        for (int i = 0; i < values; i++) {
            target.writeLong(source.readLong());
        }
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof CovarianceTripleSerializer other
                && other.dimension == dimension
                && other.signed == signed;
    }

    @Override
    public int hashCode() {
        return 0x636f76 + dimension + (signed ? 0x10000 : 0);
    }

    @Override
    public String toString() {
        return "CovarianceTripleSerializer(m = " + dimension + (signed ? ", signed" : "") + ")";
    }

    @Override
    public TypeSerializerSnapshot<CovarianceTriple> snapshotConfiguration() {
        return new CovarianceTripleSerializerSnapshot(dimension, signed);
    }

    /** Snapshot of a {@link CovarianceTripleSerializer}: records the number of features m and the sign. */
    public static final class CovarianceTripleSerializerSnapshot implements TypeSerializerSnapshot<CovarianceTriple> {
        private static final int VERSION = 2;

        private int dimension;
        private boolean signed;

        /** For reading a snapshot. */
        public CovarianceTripleSerializerSnapshot() {}

        CovarianceTripleSerializerSnapshot(int dimension, boolean signed) {
            this.dimension = dimension;
            this.signed = signed;
        }

        @Override
        public int getCurrentVersion() {
            return VERSION;
        }

        @Override
        public void writeSnapshot(DataOutputView out) throws IOException {
            out.writeInt(dimension);
            out.writeBoolean(signed);
        }

        @Override
        public void readSnapshot(int readVersion, DataInputView in, ClassLoader userCodeClassLoader)
                throws IOException {
            if (readVersion != VERSION && readVersion != 1) {
                throw new IOException(
                        "unknown version " + readVersion + " of the covariance triple serializer snapshot");
            }
            dimension = in.readInt();
            signed = readVersion >= 2 && in.readBoolean();
        }

        @Override
        public TypeSerializer<CovarianceTriple> restoreSerializer() {
            return new CovarianceTripleSerializer(dimension, signed);
        }

        @Override
        public TypeSerializerSchemaCompatibility<CovarianceTriple> resolveSchemaCompatibility(
                TypeSerializerSnapshot<CovarianceTriple> oldSerializerSnapshot) {
            return oldSerializerSnapshot instanceof CovarianceTripleSerializerSnapshot old
                            && old.dimension == dimension
                            && old.signed == signed
                    ? TypeSerializerSchemaCompatibility.compatibleAsIs()
                    : TypeSerializerSchemaCompatibility.incompatible();
        }
    }
}
