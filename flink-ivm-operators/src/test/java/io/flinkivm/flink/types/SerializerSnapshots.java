package io.flinkivm.flink.types;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSchemaCompatibility;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/** Writes serializer snapshots as a savepoint would and reads them back. */
final class SerializerSnapshots {
    private SerializerSnapshots() {}

    /** {@code serializer}'s snapshot after writing and reading it (with its version), as on restore. */
    static <T> TypeSerializerSnapshot<T> roundTrip(TypeSerializer<T> serializer) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(64);
        TypeSerializerSnapshot.writeVersionedSnapshot(out, serializer.snapshotConfiguration());
        return TypeSerializerSnapshot.readVersionedSnapshot(
                new DataInputDeserializer(out.getCopyOfBuffer()), SerializerSnapshots.class.getClassLoader());
    }

    /**
     * The compatibility of {@code now} with state written by {@code before}, which may be for another
     * payload type (as when a job is restored with another semiring).
     */
    @SuppressWarnings("unchecked")
    static <T> TypeSerializerSchemaCompatibility<T> compatibility(TypeSerializer<?> before, TypeSerializer<T> now)
            throws IOException {
        return now.snapshotConfiguration().resolveSchemaCompatibility((TypeSerializerSnapshot<T>) roundTrip(before));
    }

    /** Checks that a restored snapshot of {@code serializer} is compatible as is and restores an equal serializer. */
    static <T> void assertRestoresAsIs(TypeSerializer<T> serializer) throws IOException {
        TypeSerializerSnapshot<T> restored = roundTrip(serializer);
        assertThat(serializer
                        .snapshotConfiguration()
                        .resolveSchemaCompatibility(restored)
                        .isCompatibleAsIs())
                .isTrue();
        assertThat(restored.restoreSerializer()).isEqualTo(serializer);
    }

    /** Checks that state written by {@code before} is refused by {@code now} (say, other components). */
    static <T> void assertIncompatible(TypeSerializer<T> before, TypeSerializer<T> now) throws IOException {
        assertThat(now.snapshotConfiguration()
                        .resolveSchemaCompatibility(roundTrip(before))
                        .isIncompatible())
                .isTrue();
    }
}
