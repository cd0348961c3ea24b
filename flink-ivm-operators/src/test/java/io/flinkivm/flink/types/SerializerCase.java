package io.flinkivm.flink.types;

import org.apache.flink.api.common.typeutils.SerializerTestBase;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.testutils.DeeplyEqualsChecker;

/** Flink's serializer test suite over a given serializer and test data (for {@code @Nested} cases). */
abstract class SerializerCase<T> extends SerializerTestBase<T> {
    private final TypeSerializer<T> serializer;
    private final Class<?> typeClass;
    private final T[] data;

    SerializerCase(TypeSerializer<T> serializer, Class<?> typeClass, T[] data) {
        this(new DeeplyEqualsChecker(), serializer, typeClass, data);
    }

    SerializerCase(DeeplyEqualsChecker checker, TypeSerializer<T> serializer, Class<?> typeClass, T[] data) {
        super(checker);
        this.serializer = serializer;
        this.typeClass = typeClass;
        this.data = data;
    }

    @Override
    protected TypeSerializer<T> createSerializer() {
        return serializer;
    }

    @Override
    protected int getLength() {
        return -1;
    }

    @Override
    protected Class<T> getTypeClass() {
        return PayloadRecordTypeInfo.parameterised(typeClass);
    }

    @Override
    protected T[] getTestData() {
        return data;
    }
}
