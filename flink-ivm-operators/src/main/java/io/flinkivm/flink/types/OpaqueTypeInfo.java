package io.flinkivm.flink.types;

import org.apache.flink.api.common.typeinfo.TypeInformation;

/**
 * Type information of a class that Flink treats as one opaque field (no nested fields for Flink to
 * address): what every flink-ivm type information shares.
 */
abstract class OpaqueTypeInfo<T> extends TypeInformation<T> {
    private static final long serialVersionUID = 1L;

    private final Class<T> typeClass;

    OpaqueTypeInfo(Class<T> typeClass) {
        this.typeClass = typeClass;
    }

    @Override
    public final boolean isBasicType() {
        return false;
    }

    @Override
    public final boolean isTupleType() {
        return false;
    }

    @Override
    public final int getArity() {
        return 1;
    }

    @Override
    public final int getTotalFields() {
        return 1;
    }

    @Override
    public final Class<T> getTypeClass() {
        return typeClass;
    }

    @Override
    public boolean isKeyType() {
        return false;
    }
}
