package io.flinkivm.flink.types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.flink.api.common.typeutils.SerializerTestBase;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.junit.jupiter.api.Test;

class IngestPositionSerializerTest extends SerializerTestBase<IngestPosition> {

    @Override
    protected TypeSerializer<IngestPosition> createSerializer() {
        return IngestPositionSerializer.INSTANCE;
    }

    @Override
    protected int getLength() {
        return -1;
    }

    @Override
    protected Class<IngestPosition> getTypeClass() {
        return IngestPosition.class;
    }

    @Override
    protected IngestPosition[] getTestData() {
        return new IngestPosition[] {
            new IngestPosition(0, 1, 0, 0, 0, 0, 0, 0),
            new IngestPosition(3, 4, 2, 1L << 40, 17, 123_456_789_012L, 123_456_789_100L, 5),
            new IngestPosition(Integer.MAX_VALUE, Integer.MAX_VALUE, 7, Long.MAX_VALUE, 0, Long.MAX_VALUE, 1, 0)
        };
    }

    @Test
    void theTextOfEarlierVersionsParses() {
        assertThat(IngestPosition.fromText("1,2,3,4,5,6,7,8")).isEqualTo(new IngestPosition(1, 2, 3, 4, 5, 6, 7, 8));
        assertThatThrownBy(() -> IngestPosition.fromText("1,2,x,4,5,6,7,8"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("corrupt ingest state");
    }
}
