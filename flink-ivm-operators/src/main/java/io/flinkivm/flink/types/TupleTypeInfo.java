package io.flinkivm.flink.types;

import io.flinkivm.core.query.Tuple;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/**
 * Type information for {@link Tuple}: serialized by {@link TupleSerializer}, usable as a key
 * ({@code keyBy(selector, TupleTypeInfo.INSTANCE)}, on heap and RocksDB state backends: the hash
 * code is deterministic and equal tuples have equal bytes).
 */
public final class TupleTypeInfo extends TypeInformation<Tuple> {
    private static final long serialVersionUID = 1L;

    /** The only instance. */
    public static final TupleTypeInfo INSTANCE = new TupleTypeInfo();

    private TupleTypeInfo() {}

    @Override
    public boolean isBasicType() {
        return false;
    }

    @Override
    public boolean isTupleType() {
        return false;
    }

    @Override
    public int getArity() {
        return 1;
    }

    @Override
    public int getTotalFields() {
        return 1;
    }

    @Override
    public Class<Tuple> getTypeClass() {
        return Tuple.class;
    }

    @Override
    public boolean isKeyType() {
        return true;
    }

    @Override
    public TypeSerializer<Tuple> createSerializer(SerializerConfig config) {
        return TupleSerializer.INSTANCE;
    }

    @Override
    public String toString() {
        return "Tuple";
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof TupleTypeInfo other && other.canEqual(this);
    }

    @Override
    public int hashCode() {
        return TupleTypeInfo.class.getName().hashCode();
    }

    @Override
    public boolean canEqual(Object obj) {
        return obj instanceof TupleTypeInfo;
    }

    private Object readResolve() {
        return INSTANCE;
    }
}
