package io.flinkivm.flink.types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import org.apache.flink.api.common.typeutils.SerializerTestBase;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

class EpochEndSerializerTest extends SerializerTestBase<EpochEnd> {

    @Override
    protected TypeSerializer<EpochEnd> createSerializer() {
        return EpochEndSerializer.INSTANCE;
    }

    @Override
    protected int getLength() {
        return -1;
    }

    @Override
    protected Class<EpochEnd> getTypeClass() {
        return EpochEnd.class;
    }

    @Override
    protected EpochEnd[] getTestData() {
        return new EpochEnd[] {
            new EpochEnd(0, 0, 1, 0, true, true),
            new EpochEnd(3, 2, 1L << 40, 123_456_789L, false, true, 1_700_000_000_000L),
            new EpochEnd(Integer.MAX_VALUE, 7, Long.MAX_VALUE, Long.MAX_VALUE, true, false, -5),
            new EpochEnd(1, 1, 4095, 10, false, false, Long.MAX_VALUE)
        };
    }

    /** Epoch ends of format 1 (before event times) read as ends without an event time. */
    @Test
    void readsFormatOne() throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(32);
        VarInts.write(2, out);
        VarInts.write(1, out);
        VarInts.writeLong(4095, out);
        VarInts.writeLong(17, out);
        out.writeByte(3);
        EpochEnd e = EpochEndSerializer.INSTANCE.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));
        assertThat(e).isEqualTo(new EpochEnd(2, 1, 4095, 17, true, true, EpochEnd.NO_EVENT_TIME));
        out.clear();
        VarInts.write(0, out);
        VarInts.write(0, out);
        VarInts.writeLong(1, out);
        VarInts.writeLong(1, out);
        out.writeByte(8);
        assertThatThrownBy(
                        () -> EpochEndSerializer.INSTANCE.deserialize(new DataInputDeserializer(out.getCopyOfBuffer())))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("corrupt epoch end: unknown flags 0x8");
    }

    /** A snapshot of format 1 (version 3, Flink's simple snapshot) and of format 2 both restore as they are. */
    @Test
    void snapshotsOfBothFormatsRestoreAsTheyAre() throws IOException {
        SerializerSnapshots.assertRestoresAsIs(EpochEndSerializer.INSTANCE);
        EpochEndSerializer.EpochEndSerializerSnapshot old = new EpochEndSerializer.EpochEndSerializerSnapshot();
        old.readSnapshot(3, new DataInputDeserializer(new byte[0]), getClass().getClassLoader());
        assertThat(old.format()).isEqualTo(1);
        assertThat(EpochEndSerializer.INSTANCE
                        .snapshotConfiguration()
                        .resolveSchemaCompatibility(old)
                        .isCompatibleAsIs())
                .isTrue();
        assertThat(old.restoreSerializer()).isSameAs(EpochEndSerializer.INSTANCE);
        TypeSerializerSnapshot<EpochEnd> now = SerializerSnapshots.roundTrip(EpochEndSerializer.INSTANCE);
        assertThat(((EpochEndSerializer.EpochEndSerializerSnapshot) now).format())
                .isEqualTo(2);
        assertThatThrownBy(() -> new EpochEndSerializer.EpochEndSerializerSnapshot()
                        .readSnapshot(
                                5,
                                new DataInputDeserializer(new byte[0]),
                                getClass().getClassLoader()))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("epoch ends of snapshot version 5 are not known");
    }
}
