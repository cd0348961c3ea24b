package io.flinkivm.flink.types;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.core.semiring.Polynomial;
import java.io.IOException;
import org.apache.flink.api.common.typeutils.SerializerTestBase;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.types.StringValue;
import org.junit.jupiter.api.Test;

class PolynomialSerializerTest extends SerializerTestBase<Polynomial> {

    @Override
    protected TypeSerializer<Polynomial> createSerializer() {
        return PolynomialSerializer.INSTANCE;
    }

    @Override
    protected int getLength() {
        return -1;
    }

    @Override
    protected Class<Polynomial> getTypeClass() {
        return Polynomial.class;
    }

    @Override
    protected Polynomial[] getTestData() {
        return Samples.polynomials();
    }

    @Test
    void malformedTextIsCorruptData() throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(16);
        StringValue.writeString("r1 + + s2", out);
        assertThatThrownBy(() ->
                        PolynomialSerializer.INSTANCE.deserialize(new DataInputDeserializer(out.getCopyOfBuffer())))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("corrupt provenance data");
    }
}
