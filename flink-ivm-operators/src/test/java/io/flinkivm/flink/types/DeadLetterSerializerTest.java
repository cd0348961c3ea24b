package io.flinkivm.flink.types;

import org.apache.flink.api.common.typeutils.SerializerTestBase;
import org.apache.flink.api.common.typeutils.TypeSerializer;

class DeadLetterSerializerTest extends SerializerTestBase<DeadLetter> {

    @Override
    protected TypeSerializer<DeadLetter> createSerializer() {
        return DeadLetterSerializer.INSTANCE;
    }

    @Override
    protected int getLength() {
        return -1;
    }

    @Override
    protected Class<DeadLetter> getTypeClass() {
        return DeadLetter.class;
    }

    @Override
    protected DeadLetter[] getTestData() {
        return new DeadLetter[] {
            new DeadLetter("line 17", "expected 3 values, got 2", "R,1"),
            new DeadLetter(null, "", null),
            new DeadLetter("orders-0@42", Samples.NON_ASCII, Samples.LONG_STRING),
        };
    }
}
