package io.flinkivm.flink.types;

/** Type information for {@link DeadLetter}s, serialized by {@link DeadLetterSerializer}. */
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
