package io.flinkivm.flink.types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.core.semiring.CovarianceTriple;
import java.io.IOException;
import org.apache.flink.api.common.typeutils.SerializerTestBase;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

class CovarianceTripleSerializerTest extends SerializerTestBase<CovarianceTriple> {

    @Override
    protected TypeSerializer<CovarianceTriple> createSerializer() {
        return new CovarianceTripleSerializer(2);
    }

    @Override
    protected int getLength() {
        return 8 + 2 * 8 + 4 * 8;
    }

    @Override
    protected Class<CovarianceTriple> getTypeClass() {
        return CovarianceTriple.class;
    }

    @Override
    protected CovarianceTriple[] getTestData() {
        return Samples.triples2();
    }

    @Test
    void snapshotRecordsTheDimension() throws IOException {
        TypeSerializerSnapshot<CovarianceTriple> two = SerializerSnapshots.roundTrip(new CovarianceTripleSerializer(2));
        assertThat(two.restoreSerializer()).isEqualTo(new CovarianceTripleSerializer(2));
        assertThat(new CovarianceTripleSerializer(2)
                        .snapshotConfiguration()
                        .resolveSchemaCompatibility(two)
                        .isCompatibleAsIs())
                .isTrue();
        assertThat(new CovarianceTripleSerializer(3)
                        .snapshotConfiguration()
                        .resolveSchemaCompatibility(two)
                        .isIncompatible())
                .isTrue();
        assertThat(new CovarianceTripleSerializer(2)
                        .snapshotConfiguration()
                        .resolveSchemaCompatibility(SerializerSnapshots.roundTrip(new CovarianceTripleSerializer(1)))
                        .isIncompatible())
                .isTrue();
    }

    @Test
    void wrongDimensionIsRejected() {
        assertThatThrownBy(() -> new CovarianceTripleSerializer(2)
                        .serialize(CovarianceTriple.lift(1, 2, 3), new DataOutputSerializer(64)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("over 3 features")
                .hasMessageContaining("covariance:2");
        assertThatThrownBy(() -> new CovarianceTripleSerializer(0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void invalidTripleIsCorruptData() throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(64);
        out.writeLong(0);
        out.writeDouble(1.0); // count 0 but a non-zero sum: not a payload
        out.writeDouble(0.0);
        assertThatThrownBy(() ->
                        new CovarianceTripleSerializer(1).deserialize(new DataInputDeserializer(out.getCopyOfBuffer())))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("corrupt covariance:1 data");
    }
}
