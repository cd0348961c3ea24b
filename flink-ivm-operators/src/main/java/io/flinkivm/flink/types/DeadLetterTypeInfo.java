package io.flinkivm.flink.types;

import io.flinkivm.flink.DeadLetter;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/** Type information for {@link DeadLetter}s, serialized by {@link DeadLetterSerializer}. */
public final class DeadLetterTypeInfo extends TypeInformation<DeadLetter> {
    private static final long serialVersionUID = 1L;

    /** The only instance. */
    public static final DeadLetterTypeInfo INSTANCE = new DeadLetterTypeInfo();

    private DeadLetterTypeInfo() {}

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
    public Class<DeadLetter> getTypeClass() {
        return DeadLetter.class;
    }

    @Override
    public boolean isKeyType() {
        return false;
    }

    @Override
    public TypeSerializer<DeadLetter> createSerializer(SerializerConfig config) {
        return DeadLetterSerializer.INSTANCE;
    }

    @Override
    public String toString() {
        return "DeadLetter";
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof DeadLetterTypeInfo other && other.canEqual(this);
    }

    @Override
    public int hashCode() {
        return DeadLetterTypeInfo.class.getName().hashCode();
    }

    @Override
    public boolean canEqual(Object obj) {
        return obj instanceof DeadLetterTypeInfo;
    }

    private Object readResolve() {
        return INSTANCE;
    }
}
