package io.flinkivm.flink.types;

import org.apache.flink.annotation.Internal;

/** Type information for {@link DeadLetter}s, serialized by {@link DeadLetterSerializer}. */
@Internal
public final class DeadLetterTypeInfo extends SingletonTypeInfo<DeadLetter> {
    private static final long serialVersionUID = 1L;

    /** The only instance. */
    public static final DeadLetterTypeInfo INSTANCE = new DeadLetterTypeInfo();

    private DeadLetterTypeInfo() {
        super(DeadLetter.class, DeadLetterSerializer.INSTANCE);
    }

    private Object readResolve() {
        return INSTANCE;
    }
}
