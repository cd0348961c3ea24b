package io.flinkivm.flink.types;

import io.flinkivm.core.query.Tuple;
import org.apache.flink.annotation.Internal;

/**
 * Type information for {@link Tuple}: serialized by {@link TupleSerializer}, usable as a key
 * ({@code keyBy(selector, TupleTypeInfo.INSTANCE)}, on heap and RocksDB state backends: the hash
 * code is deterministic and equal tuples have equal bytes).
 */
@Internal
public final class TupleTypeInfo extends SingletonTypeInfo<Tuple> {
    private static final long serialVersionUID = 1L;

    /** The only instance. */
    public static final TupleTypeInfo INSTANCE = new TupleTypeInfo();

    private TupleTypeInfo() {
        super(Tuple.class, TupleSerializer.INSTANCE);
    }

    @Override
    public boolean isKeyType() {
        return true;
    }

    private Object readResolve() {
        return INSTANCE;
    }
}
