package io.flinkivm.flink.types;

import org.apache.flink.annotation.Internal;

/** Type information for {@link EpochEnd}s, serialized by {@link EpochEndSerializer}. */
@Internal
public final class EpochEndTypeInfo extends SingletonTypeInfo<EpochEnd> {
    private static final long serialVersionUID = 1L;

    /** The only instance. */
    public static final EpochEndTypeInfo INSTANCE = new EpochEndTypeInfo();

    private EpochEndTypeInfo() {
        super(EpochEnd.class, EpochEndSerializer.INSTANCE);
    }

    private Object readResolve() {
        return INSTANCE;
    }
}
